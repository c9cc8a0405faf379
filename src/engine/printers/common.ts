/** The columns most printers share: NAME, AGE, and the wide CONTAINERS / IMAGES pair. */
import { OBJECT_CREATION_TIMESTAMP, OBJECT_NAME } from './descriptions';
import { column, type TableColumnDefinition } from './table';

export const nameColumn: TableColumnDefinition = column('Name', 'string', OBJECT_NAME, { format: 'name' });
export const ageColumn: TableColumnDefinition = column('Age', 'string', OBJECT_CREATION_TIMESTAMP);
export const containersColumn: TableColumnDefinition = column('Containers', 'string', 'Names of each container in the template.', { priority: 1 });
export const imagesColumn: TableColumnDefinition = column('Images', 'string', 'Images referenced by each container in the template.', { priority: 1 });
