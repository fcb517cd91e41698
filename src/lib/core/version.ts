// The app's version and commit, put in by the build (vite.config.ts `define`) so every run record
// says which code produced it. Tests in Node get the same values from vitest.config.ts.
declare const __APP_VERSION__: string;
declare const __GIT_COMMIT__: string;

export const APP_VERSION: string = `${__APP_VERSION__}+${__GIT_COMMIT__}`;
