#ifndef BULWARK_CCBOR_SHIM_H
#define BULWARK_CCBOR_SHIM_H
/* libcbor: the CBOR of WebAuthn's attestation objects and COSE keys. */
#include <cbor.h>
#endif
