#ifndef BULWARK_CFIDO2_SHIM_H
#define BULWARK_CFIDO2_SHIM_H
/* libfido2: USB security keys (CTAP2 over HID), and its custom transport
   hooks, through which the tests attach a software authenticator. */
#include <fido.h>
#endif
