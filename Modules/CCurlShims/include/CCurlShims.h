#pragma once
// Typed, non-variadic wrappers over libcurl's variadic `curl_easy_setopt`, `curl_easy_getinfo`,
// `curl_share_setopt` and `curl_multi_setopt`, which Swift cannot import. Every symbol carries the `spc_` prefix.
// Only Transport may import this module.
#include <curl/curl.h>

static const CURLversion SPC_CURLVERSION_NOW = CURLVERSION_NOW;

typedef size_t (*spc_data_callback)(char *buffer, size_t size, size_t count, void *userdata);

CURLcode spc_easy_setopt_long(CURL *_Nonnull handle, CURLoption option, long value);
CURLcode spc_easy_setopt_string(CURL *_Nonnull handle, CURLoption option, const char *_Nullable value);
CURLcode spc_easy_setopt_pointer(CURL *_Nonnull handle, CURLoption option, void *_Nullable value);
CURLcode spc_easy_setopt_off_t(CURL *_Nonnull handle, CURLoption option, curl_off_t value);
/// Sets a blob option (`CURLOPT_SSLCERT_BLOB`, `CURLOPT_SSLKEY_BLOB`); libcurl copies the bytes (CURL_BLOB_COPY).
CURLcode spc_easy_setopt_blob(CURL *_Nonnull handle, CURLoption option, const void *_Nonnull data, size_t length);
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

