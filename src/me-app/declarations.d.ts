// Stylesheets are bundled by esbuild; importing one has no value.
declare module '*.css';
