// zlib, for the Deflate module (CompressionStream, DecompressionStream, compressed HTTP answers). deflateInit2 and
// inflateInit2 are macros (they pass zlib's version and the size of z_stream), which Swift cannot
// call, so they are wrapped here under fixed names.
#include <zlib.h>

/// A deflate stream as node's zlib makes one: `level` (6 is zlib's default), a window of 2^15 bytes
/// framed by `windowBits` (15 zlib, 31 gzip, -15 raw), memLevel 8, the default strategy.
static inline int czlib_deflate_init(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

/// An inflate stream for `windowBits` (15 zlib, 31 gzip, -15 raw).
static inline int czlib_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
