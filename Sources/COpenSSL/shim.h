#ifndef SIGNIN_COPENSSL_SHIM_H
#define SIGNIN_COPENSSL_SHIM_H
// Only libcrypto: the TLS side of OpenSSL is libcurl's business.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/objects.h>


// EVP_PKEY_PUBLIC_KEY is a macro of macros that Swift does not import.
static inline int signin_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
#endif
