/** Language server entry point (dist/server.mjs): LSP over stdio or Node IPC, as the client chooses. */
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { KubesimLanguageServer } from './language-server';

new KubesimLanguageServer(createConnection(ProposedFeatures.all)).listen();
