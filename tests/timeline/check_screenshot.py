"""Checks a timeline screenshot: a PNG of the expected size that shows the
first two thread colours (slices of T0 and T1) and the failure's red.
Standard library only (zlib), for 8-bit RGB/RGBA PNGs as Chromium writes."""
import struct
import sys
import zlib

path, want_width, want_height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, header = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        header = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
width, height, depth, colour_type = header[:4]
assert (width, height) == (want_width, want_height), "screenshot is %dx%d" % (width, height)
assert depth == 8 and colour_type in (2, 6), "unexpected PNG format depth=%d type=%d" % (depth, colour_type)
bpp = 3 if colour_type == 2 else 4
raw = zlib.decompress(idat)
stride = width * bpp
previous = bytearray(stride)
colours = {}
for y in range(height):
    filter_type = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = previous[i]
        c = previous[i - bpp] if i >= bpp else 0
        if filter_type == 1:
            line[i] = (line[i] + a) & 255
        elif filter_type == 2:
            line[i] = (line[i] + b) & 255
        elif filter_type == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif filter_type == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        key = bytes(line[x:x + 3])
        colours[key] = colours.get(key, 0) + 1
    previous = line

def count(hex_colour):
    return colours.get(bytes.fromhex(hex_colour), 0)

problems = []
if len(colours) < 16:
    problems.append("only %d colours: the page looks blank" % len(colours))
for name, colour, least in (("T0 slices", "4e79a7", 200), ("T1 slices", "f28e2b", 200), ("failure", "d62728", 20)):
    if count(colour) < least:
        problems.append("%s (#%s): %d pixels, expected at least %d" % (name, colour, count(colour), least))
if problems:
    sys.exit("screenshot check failed: " + "; ".join(problems))
print("screenshot ok: %dx%d, %d colours, T0 %d px, T1 %d px, failure %d px" % (
    width, height, len(colours), count("4e79a7"), count("f28e2b"), count("d62728")))
