#include "CShims.h"
#include <arpa/inet.h>
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlmemory.h>

CURLcode spc_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode spc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
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

struct MHD_Daemon *spc_mhd_start_daemon(unsigned int flags, const struct sockaddr_in *address,
                                        MHD_AccessHandlerCallback handler, void *handler_context,
                                        MHD_RequestCompletedCallback completed, void *completed_context,
                                        spc_mhd_uri_callback uri_logger, void *uri_context,
                                        unsigned int connection_timeout_seconds, const char *tls_cert_pem,
                                        const char *tls_key_pem) {
    uint16_t port = ntohs(address->sin_port);
    if (tls_cert_pem != NULL && tls_key_pem != NULL) {
        return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR, address,
                                MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                                MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_context,
                                MHD_OPTION_HTTPS_MEM_CERT, tls_cert_pem, MHD_OPTION_HTTPS_MEM_KEY, tls_key_pem,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds, MHD_OPTION_NOTIFY_COMPLETED,
                            completed, completed_context, MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_context,
                            MHD_OPTION_END);
}

uint16_t spc_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void spc_mhd_client_address(struct MHD_Connection *connection, char *out, size_t out_size) {
    out[0] = '\0';
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)out_size);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)out_size);
    }
}

void spc_xml_free(void *pointer) {
    if (pointer != NULL) xmlFree(pointer);
}
