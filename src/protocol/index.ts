// Public API of the pure PUSH protocol layer (see PROTOCOL.md beside it). No I/O, no framework imports.
export * from './records';
export * from './time';
export * from './request';
export * from './attlog';
export * from './operlog';
export * from './options';
export * from './attphoto';
export * from './command-results';
export * from './access-uploads';
export * from './replies';
export * from './commands';
export * from './dialect';
export * from './door-rules';
export * from './door-opening-rules';
export * from './record-batches';
export * from './verify-type';
export * from './token';
export { base64PayloadError, base64DecodedLength } from './base64-payload';
