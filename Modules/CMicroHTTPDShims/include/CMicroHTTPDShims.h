#pragma once
// Typed, non-variadic wrappers over libmicrohttpd's variadic `MHD_start_daemon` and its info unions, which Swift
// cannot import. Every symbol carries the `spc_` prefix. Only HTTPServer may import this module.
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdint.h>

/// Called with the raw request URI (path and query as sent) before anything is parsed; what it returns
/// becomes the request's context pointer (`*req_cls` in the access handler).
typedef void *_Nullable (*spc_mhd_uri_callback)(void *_Nullable context, const char *_Nonnull uri,
                                                 struct MHD_Connection *_Nonnull connection);

/// Starts a daemon bound to `address` (IPv4, port inside it; 0 = any free port). `tls_cert_pem` and
/// `tls_key_pem` may both be NULL for plain HTTP; when set, `flags` must include MHD_USE_TLS.
struct MHD_Daemon *_Nullable spc_mhd_start_daemon(
    unsigned int flags, const struct sockaddr_in *_Nonnull address, MHD_AccessHandlerCallback _Nonnull handler,
    void *_Nullable handler_context, MHD_RequestCompletedCallback _Nullable completed,
    void *_Nullable completed_context, spc_mhd_uri_callback _Nonnull uri_logger, void *_Nullable uri_context,
    unsigned int connection_timeout_seconds, const char *_Nullable tls_cert_pem, const char *_Nullable tls_key_pem);

/// The port the daemon actually listens on (useful after binding port 0); 0 when unknown.
uint16_t spc_mhd_bound_port(struct MHD_Daemon *_Nonnull daemon);

/// The peer's IPv4/IPv6 address as text in `out` (at least 64 bytes); empty when unknown.
void spc_mhd_client_address(struct MHD_Connection *_Nonnull connection, char *_Nonnull out, size_t out_size);

