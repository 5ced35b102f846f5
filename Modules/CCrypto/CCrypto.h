#pragma once
// OpenSSL's libcrypto: HMAC, message digests, PEM keys and X.509 certificates, RSA PKCS#1 v1.5 and PSS
// signatures, P-256 ECDSA for passkeys (the non-variadic functions Swift calls directly; macros Swift cannot
// import are re-exported below).
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

/// `BIO_get_mem_data` is a macro over `BIO_ctrl`: the bytes a memory BIO holds, and their count.
static inline long spc_bio_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
/// `EVP_PKEY_RSA` aliases `NID_rsaEncryption`.
static const int SPC_EVP_PKEY_RSA = EVP_PKEY_RSA;
/// `EVP_PKEY_EC` aliases `NID_X9_62_id_ecPublicKey`.
static const int SPC_EVP_PKEY_EC = EVP_PKEY_EC;
