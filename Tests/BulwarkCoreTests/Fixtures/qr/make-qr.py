#!/usr/bin/env python3
"""The QR test images, written by segno (a QR encoder independent of
bulwark's reader) and Pillow. Run from this directory to remake them:
pip install segno pillow && python3 make-qr.py"""
import io
import segno
from PIL import Image

RFC6238 = ("otpauth://totp/Example:alice@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
           "&issuer=Example&algorithm=SHA1&digits=8&period=30")
OTHER = "otpauth://totp/Shiny:jane?secret=JBSWY3DPEHPK3PXP&issuer=Shiny"


def image(text, scale=6):
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=scale, border=4)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("L")


image(RFC6238).save("rfc6238.png", optimize=True)
image(RFC6238).save("rfc6238.jpg", quality=70)
# Transparent background with dark modules, as some pages serve it.
grey = image(OTHER)
rgba = Image.new("RGBA", grey.size, (0, 0, 0, 0))
rgba.putalpha(grey.point(lambda v: 255 - v))
rgba.save("transparent.png")
# Two different codes side by side.
a, b = image(RFC6238, 4), image(OTHER, 4)
both = Image.new("L", (a.width + b.width, max(a.height, b.height)), 255)
both.paste(a, (0, 0))
both.paste(b, (a.width, 0))
both.save("two-codes.png", optimize=True)
# No code at all.
Image.new("L", (64, 64), 255).save("blank.png")
# A header claiming 100,000 pixels a side (its checksum right): refused before any memory is taken.
import struct
import zlib
with open("blank.png", "rb") as f:
    png = bytearray(f.read())
png[16:24] = struct.pack(">II", 100_000, 100_000)
png[29:33] = struct.pack(">I", zlib.crc32(bytes(png[12:29])))
with open("huge-header.png", "wb") as f:
    f.write(png)
