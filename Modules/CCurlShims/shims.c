#include "CCurlShims.h"

CURLcode spc_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob = {(void *)data, length, CURL_BLOB_COPY};
    return curl_easy_setopt(handle, option, &blob);
}
CURLcode spc_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_data_callback(CURL *handle, CURLoption option, spc_data_callback cb) {
    return curl_easy_setopt(handle, option, cb);
}
CURLcode spc_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback cb) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, cb);
}

CURLcode spc_easy_setopt_debug_callback(CURL *handle, curl_debug_callback cb) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, cb);
}
CURLcode spc_easy_setopt_seek_callback(CURL *handle, curl_seek_callback cb) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, cb);
}

CURLcode spc_easy_getinfo_long(CURL *handle, CURLINFO info, long *out) { return curl_easy_getinfo(handle, info, out); }
CURLcode spc_easy_getinfo_string(CURL *handle, CURLINFO info, const char **out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode spc_easy_getinfo_double(CURL *handle, CURLINFO info, double *out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode spc_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode spc_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLSHcode spc_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}
CURLSHcode spc_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value) {
    return curl_share_setopt(share, option, value);
}
CURLSHcode spc_share_setopt_lockfunc(CURLSH *share, curl_lock_function cb) {
    return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, cb);
}
CURLSHcode spc_share_setopt_unlockfunc(CURLSH *share, curl_unlock_function cb) {
    return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, cb);
}

CURLMcode spc_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

