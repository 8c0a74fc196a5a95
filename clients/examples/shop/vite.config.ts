import { defineConfig } from "vite";

// 127.0.0.1 on Vite's port: the demo store allows http://127.0.0.1 and
// http://localhost at any port as browser origins and checkout callbacks.
export default defineConfig({ server: { host: "127.0.0.1", port: 5173 } });
