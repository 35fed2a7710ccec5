//! The bindings `wit-bindgen` generates from `wit/client.wit`: the host interfaces the component
//! imports (`wasi:http`, `wasi:io`, `wasi:clocks`), used by [`crate::transport::wasi`] and the
//! component's driver, and the exports [`crate::component`] implements. A module of its own, so
//! that the transport and the component both depend on it and not on each other.
#![allow(missing_docs, unsafe_code, clippy::all)]

wit_bindgen::generate!({
    path: "wit",
    world: "mcp-client",
    generate_all,
});
