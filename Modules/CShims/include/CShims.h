#pragma once
// Typed, non-variadic wrappers over the C calls Swift cannot import (variadic functions, global
// function-pointer variables, macros that alias enum constants). Every symbol carries the `spc_` prefix.
// libxml2 headers are included only in shims.c: a second Clang module including them breaks the build.
#include <curl/curl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdint.h>

// MARK: libcurl

static const CURLversion SPC_CURLVERSION_NOW = CURLVERSION_NOW;

typedef size_t (*spc_data_callback)(char *buffer, size_t size, size_t count, void *userdata);

CURLcode spc_easy_setopt_long(CURL *_Nonnull handle, CURLoption option, long value);
CURLcode spc_easy_setopt_string(CURL *_Nonnull handle, CURLoption option, const char *_Nullable value);
CURLcode spc_easy_setopt_pointer(CURL *_Nonnull handle, CURLoption option, void *_Nullable value);
CURLcode spc_easy_setopt_off_t(CURL *_Nonnull handle, CURLoption option, curl_off_t value);
CURLcode spc_easy_setopt_slist(CURL *_Nonnull handle, CURLoption option, struct curl_slist *_Nullable value);
CURLcode spc_easy_setopt_data_callback(CURL *_Nonnull handle, CURLoption option, spc_data_callback _Nullable cb);
CURLcode spc_easy_setopt_xferinfo_callback(CURL *_Nonnull handle, curl_xferinfo_callback _Nullable cb);
/// CURLOPT_DEBUGFUNCTION (used with CURLOPT_VERBOSE 1 to see the request headers actually sent).
CURLcode spc_easy_setopt_debug_callback(CURL *_Nonnull handle, curl_debug_callback _Nullable cb);
/// CURLOPT_SEEKFUNCTION (lets libcurl rewind a streamed upload, e.g. for NTLM's second round).
CURLcode spc_easy_setopt_seek_callback(CURL *_Nonnull handle, curl_seek_callback _Nullable cb);

CURLcode spc_easy_getinfo_long(CURL *_Nonnull handle, CURLINFO info, long *_Nonnull out);
CURLcode spc_easy_getinfo_string(CURL *_Nonnull handle, CURLINFO info, const char *_Nullable *_Nonnull out);
CURLcode spc_easy_getinfo_double(CURL *_Nonnull handle, CURLINFO info, double *_Nonnull out);
CURLcode spc_easy_getinfo_off_t(CURL *_Nonnull handle, CURLINFO info, curl_off_t *_Nonnull out);
CURLcode spc_easy_getinfo_slist(CURL *_Nonnull handle, CURLINFO info, struct curl_slist *_Nullable *_Nonnull out);

CURLSHcode spc_share_setopt_long(CURLSH *_Nonnull share, CURLSHoption option, long value);
CURLSHcode spc_share_setopt_pointer(CURLSH *_Nonnull share, CURLSHoption option, void *_Nullable value);
CURLSHcode spc_share_setopt_lockfunc(CURLSH *_Nonnull share, curl_lock_function _Nonnull cb);
CURLSHcode spc_share_setopt_unlockfunc(CURLSH *_Nonnull share, curl_unlock_function _Nonnull cb);

CURLMcode spc_multi_setopt_long(CURLM *_Nonnull multi, CURLMoption option, long value);

// MARK: libmicrohttpd

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

// MARK: libxml2

/// Calls libxml2's `xmlFree` (a global function pointer Swift 6 refuses to touch).
void spc_xml_free(void *_Nullable pointer);
