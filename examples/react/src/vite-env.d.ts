/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the service is, e.g. http://localhost:3000 (npm start) or http://127.0.0.1:4010 (npm run mock). */
  readonly VITE_LOOKUP_BASE_URL?: string;
  /** A development token, e.g. the demo token npm start prints. Never a production one. */
  readonly VITE_LOOKUP_TOKEN?: string;
}
