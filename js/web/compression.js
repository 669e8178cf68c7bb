"use strict";
// CompressionStream and DecompressionStream, as the WHATWG Compression Standard defines them:
// TransformStreams whose context is a zlib stream held natively (Sources/WebPlatform/
// CompressionFunctions.swift), fed one native call per chunk, the output enqueued as the
// Uint8Arrays zlib wrote into. Formats "deflate" (RFC 1950), "deflate-raw" (RFC 1951) and "gzip"
// (RFC 1952), compressed at zlib's level 6 as node does.

const TransformStream = internals.get("TransformStream");
const { requireArguments, enumerable, toStringTag, unserializable } = internals.get("webidl");

// ---- Web IDL helpers -------------------------------------------------------------------------------

// Brand checks and a BufferSource's parts through the built-ins' own getters (webidl.js).
const { typedArrayTag, typedArrayBuffer, arrayBufferByteLength, dataViewBuffer, dataViewByteOffset, dataViewByteLength, hasBrand } = internals.get("webidl").buffers;

// A chunk converted to a BufferSource (not shared): what native code reads in place, an ArrayBuffer
// or a typed array (a DataView becomes a Uint8Array over its bytes). Anything else is a TypeError.
function bufferSource(chunk, what) {
  if (chunk !== null && typeof chunk === "object") {
    if (typedArrayTag.call(chunk) !== undefined) {
      if (hasBrand(arrayBufferByteLength, typedArrayBuffer.call(chunk))) return chunk;
    } else if (hasBrand(arrayBufferByteLength, chunk)) {
      return chunk;
    } else if (hasBrand(dataViewBuffer, chunk)) {
      const buffer = dataViewBuffer.call(chunk);
      if (hasBrand(arrayBufferByteLength, buffer)) {
        return new Uint8Array(buffer, dataViewByteOffset.call(chunk), dataViewByteLength.call(chunk));
      }
    }
  }
  throw new TypeError(`${what}: the chunk is not an ArrayBuffer or an ArrayBufferView (not shared)`);
}

// CompressionFormat, a Web IDL enum.
const FORMATS = ["deflate", "deflate-raw", "gzip"];

function compressionFormat(value, what) {
  const format = `${value}`;
  if (!FORMATS.includes(format)) {
    throw new TypeError(`${what}: The provided value '${format}' is not a valid enum value of type CompressionFormat ("deflate", "deflate-raw" or "gzip").`);
  }
  return format;
}

// What a native call gave to enqueue: nothing, a Uint8Array, or an array of them; a string is an
// error's message, thrown once the output before it is enqueued.
function enqueueOutput(controller, output) {
  if (output === undefined) return;
  if (typeof output === "string") throw new TypeError(output);
  if (!Array.isArray(output)) {
    controller.enqueue(output);
    return;
  }
  for (const piece of output) {
    if (typeof piece === "string") throw new TypeError(piece);
    controller.enqueue(piece);
  }
}

// ---- CompressionStream ---------------------------------------------------------------------------

let compressionTransform; // (value, member) => its TransformStream, or a TypeError

class CompressionStream {
  #transform;

  constructor(format) {
    const what = "Failed to construct 'CompressionStream'";
    requireArguments(arguments.length, 1, what);
    const context = native.makeCompressor(compressionFormat(format, what));
    const write = "Failed to execute 'write' on 'CompressionStream'";
    this.#transform = new TransformStream({
      // "compress and enqueue a chunk".
      transform(chunk, controller) {
        let source;
        try {
          source = bufferSource(chunk, write);
        } catch (error) {
          native.end(context);
          throw error;
        }
        enqueueOutput(controller, native.compress(context, source));
      },
      // "compress flush and enqueue".
      flush(controller) {
        enqueueOutput(controller, native.finish(context));
      },
      cancel() {
        native.end(context);
      },
    });
  }

  // The GenericTransformStream mixin's attributes.
  get readable() {
    return compressionTransform(this, "readable").readable;
  }

  get writable() {
    return compressionTransform(this, "writable").writable;
  }

  static {
    compressionTransform = (value, member) => {
      if (value === null || typeof value !== "object" || !(#transform in value)) {
        throw new TypeError(`CompressionStream.prototype.${member}: 'this' is not a CompressionStream`);
      }
      return value.#transform;
    };
  }
}
enumerable(CompressionStream.prototype, ["readable", "writable"]);
toStringTag(CompressionStream.prototype, "CompressionStream");

// ---- DecompressionStream -------------------------------------------------------------------------

let decompressionTransform; // (value, member) => its TransformStream, or a TypeError

class DecompressionStream {
  #transform;

  constructor(format) {
    const what = "Failed to construct 'DecompressionStream'";
    requireArguments(arguments.length, 1, what);
    const context = native.makeDecompressor(compressionFormat(format, what));
    const write = "Failed to execute 'write' on 'DecompressionStream'";
    this.#transform = new TransformStream({
      // "decompress and enqueue a chunk": corrupt data and data after the end are TypeErrors.
      transform(chunk, controller) {
        let source;
        try {
          source = bufferSource(chunk, write);
        } catch (error) {
          native.end(context);
          throw error;
        }
        enqueueOutput(controller, native.decompress(context, source));
      },
      // "decompress flush and enqueue": a TypeError when the compressed data stopped short.
      flush(controller) {
        enqueueOutput(controller, native.finish(context));
      },
      cancel() {
        native.end(context);
      },
    });
  }

  // The GenericTransformStream mixin's attributes.
  get readable() {
    return decompressionTransform(this, "readable").readable;
  }

  get writable() {
    return decompressionTransform(this, "writable").writable;
  }

  static {
    decompressionTransform = (value, member) => {
      if (value === null || typeof value !== "object" || !(#transform in value)) {
        throw new TypeError(`DecompressionStream.prototype.${member}: 'this' is not a DecompressionStream`);
      }
      return value.#transform;
    };
  }
}
enumerable(DecompressionStream.prototype, ["readable", "writable"]);
toStringTag(DecompressionStream.prototype, "DecompressionStream");

// Neither is serializable: structuredClone refuses them with a DataCloneError.
unserializable(compressionTransform, decompressionTransform);

define("CompressionStream", CompressionStream);
define("DecompressionStream", DecompressionStream);
