#ifndef CQRDECODE_H
#define CQRDECODE_H
#include <stddef.h>

/* Reading a QR code from a PNG or JPEG file, with Debian's libpng,
   libjpeg-turbo and zbar: no image or QR decoding of our own. */
enum {
    BW_QR_OK = 0,
    BW_QR_UNREADABLE = 1,   /* the file cannot be opened or read */
    BW_QR_NOT_AN_IMAGE = 2, /* neither PNG nor JPEG */
    BW_QR_DAMAGED = 3,      /* the image library refused it */
    BW_QR_TOO_LARGE = 4,    /* more than BW_QR_MAX_SIDE pixels a side */
    BW_QR_NO_CODE = 5,      /* no QR code found */
    BW_QR_TOO_LONG = 6,     /* the code's text does not fit `out` */
    BW_QR_SEVERAL = 7       /* more than one different QR code */
};

#define BW_QR_MAX_SIDE 8192

/* Decodes the one QR code in the image at `path` into `out` (NUL-ended).
   Returns a BW_QR_ code. */
int bw_qr_decode_file(const char *path, char *out, size_t out_size);

#endif
