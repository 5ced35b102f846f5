#pragma once
// OpenSSL's libcrypto: HMAC and message digests (non-variadic functions Swift calls directly).
#include <openssl/evp.h>
#include <openssl/hmac.h>
