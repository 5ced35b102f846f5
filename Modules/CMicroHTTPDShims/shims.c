#include "CMicroHTTPDShims.h"
#include <arpa/inet.h>

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

