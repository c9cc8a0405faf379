import { defaultEmptyString, jsonDefaulter } from '../fields';
import { registerDefaulter } from '../registry';

registerDefaulter('', 'Secret', jsonDefaulter((secret) => defaultEmptyString(secret, 'type', 'Opaque')));
