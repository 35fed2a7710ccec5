// What an SDK user ships for a client that connects and calls tools over Streamable HTTP: run.sh
// bundles exactly this (esbuild, minified ESM for browsers) into target/bench/sdk.js.
export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
