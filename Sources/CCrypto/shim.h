#ifndef BULWARK_CCRYPTO_SHIM_H
#define BULWARK_CCRYPTO_SHIM_H
/* Keep deprecated OpenSSL calls from creeping in: OpenSSL 3 API only. */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#endif
