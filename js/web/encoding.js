"use strict";
// TextEncoder and TextDecoder, as the WHATWG Encoding Standard defines them, and atob and btoa from
// the HTML Standard. The work is native (TextEncodings, through Sources/WebPlatform/
// EncodingFunctions.swift): every encoding of the standard, UTF-8 and its legacy ones alike,
// decodes and encodes there, from the JS string's UTF-16 and the typed array's bytes in place.
// What is here is Web IDL's part: argument conversion, brand checks, the shape of the interfaces.
// TextDecoderStream and TextEncoderStream come with the streams.

const DOMException = internals.get("DOMException");

// ---- Web IDL helpers -------------------------------------------------------------------------------

const { requireArguments, dictionary, enumerable, toStringTag, unserializable } = internals.get("webidl");

// Brand checks and a BufferSource's parts through the built-ins' own getters (webidl.js).
const { typedArrayTag, arrayBufferByteLength, sharedArrayBufferByteLength, dataViewBuffer, dataViewByteOffset, dataViewByteLength, hasBrand } = internals.get("webidl").buffers;

// AllowSharedBufferSource: an ArrayBuffer, a SharedArrayBuffer or a view of one. The native side
// reads ArrayBuffers and typed arrays directly; a DataView becomes a Uint8Array over the same bytes.
function bufferSource(value, what) {
  if (value === undefined) return undefined;
  if (typedArrayTag.call(value) !== undefined) return value;
  if (hasBrand(arrayBufferByteLength, value) || hasBrand(sharedArrayBufferByteLength, value)) return value;
  if (hasBrand(dataViewBuffer, value)) {
    return new Uint8Array(dataViewBuffer.call(value), dataViewByteOffset.call(value), dataViewByteLength.call(value));
  }
  throw new TypeError(`${what}: parameter 1 is not of type 'ArrayBuffer', 'SharedArrayBuffer' or 'ArrayBufferView'`);
}

// ---- TextDecoder -------------------------------------------------------------------------------

// The lowercase names of the encodings, by the index native code knows them by.
const encodingNames = [];

function encodingName(index) {
  return (encodingNames[index] ??= native.encodingName(index));
}

let decoderFlags; // (decoder, member) => its flags, or a TypeError when it is not a TextDecoder

class TextDecoder {
  // The encoding's index × 4, + 1 when fatal, + 2 when ignoring the BOM: one number for native.
  #flags;
  // "do not flush": the last decode() was streaming, so the next one continues its stream.
  #doNotFlush = false;
  // The native decoder a stream keeps its state in, made by the first streaming call.
  #decoder = null;

  constructor(label = "utf-8", options = undefined) {
    const what = "Failed to construct 'TextDecoder'";
    label = `${label}`;
    const init = dictionary(options, what);
    const fatal = init === undefined ? false : !!init.fatal;
    const ignoreBOM = init === undefined ? false : !!init.ignoreBOM;
    const index = native.encodingForLabel(label);
    // The replacement encoding exists to stop content from being decoded; TextDecoder refuses it.
    if (index < 0 || encodingName(index) === "replacement") {
      throw new RangeError(`${what}: The "${label}" encoding is not supported`);
    }
    this.#flags = index * 4 + (fatal ? 1 : 0) + (ignoreBOM ? 2 : 0);
  }

  get encoding() {
    return encodingName(decoderFlags(this, "encoding") >> 2);
  }

  get fatal() {
    return (decoderFlags(this, "fatal") & 1) !== 0;
  }

  get ignoreBOM() {
    return (decoderFlags(this, "ignoreBOM") & 2) !== 0;
  }

  decode(input = undefined, options = undefined) {
    const flags = decoderFlags(this, "decode");
    // The common call, a whole input and no options, starts and ends its own stream: no state
    // to keep, so nothing is made for it. Native code answers null for what is not an
    // ArrayBuffer or typed array, false for a fatal decoder's error.
    if (options === undefined && !this.#doNotFlush) {
      // A few ASCII bytes of UTF-8 cost less to turn into a string here than a call to native code.
      if (flags < 4 && typedArrayTag.call(input) === "Uint8Array" && input.length <= SHORT) {
        const text = shortASCII(input);
        if (text !== null) return text;
      }
      const text = native.decode(flags, input);
      if (typeof text === "string") return text;
      if (text === false) throw invalidData(flags);
      return decoded(native.decode(flags, bufferSource(input, "Failed to execute 'decode' on 'TextDecoder'")), flags);
    }
    input = bufferSource(input, "Failed to execute 'decode' on 'TextDecoder'");
    const init = dictionary(options, "Failed to execute 'decode' on 'TextDecoder'");
    const stream = init === undefined ? false : !!init.stream;
    if (!stream && !this.#doNotFlush) return decoded(native.decode(flags, input), flags);
    this.#doNotFlush = stream;
    this.#decoder ??= native.makeDecoder(flags);
    return decoded(native.decodeStream(this.#decoder, input, stream), flags);
  }

  static {
    decoderFlags = (decoder, member) => {
      if (decoder === null || typeof decoder !== "object" || !(#flags in decoder)) {
        throw new TypeError(`TextDecoder.prototype.${member}: 'this' is not a TextDecoder`);
      }
      return decoder.#flags;
    };
  }
}

enumerable(TextDecoder.prototype, ["encoding", "fatal", "ignoreBOM", "decode"]);
toStringTag(TextDecoder.prototype, "TextDecoder");

// Up to this many bytes or code units, ASCII is decoded and encoded in JS: a native call costs more.
const SHORT = 16;
const fromCharCode = String.fromCharCode;

// The string of `bytes` when they are all ASCII, else null.
function shortASCII(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte >= 0x80) return null;
    text += fromCharCode(byte);
  }
  return text;
}

function decoded(text, flags) {
  if (typeof text === "string") return text;
  throw invalidData(flags);
}

// A fatal decoder's error, with node's message.
function invalidData(flags) {
  return new TypeError(`The encoded data was not valid for encoding ${encodingName(flags >> 2)}`);
}

// ---- TextEncoder -------------------------------------------------------------------------------

// encodeInto's two numbers, written by native code.
const progress = new Float64Array(2);

let checkEncoder; // (encoder, member) => a TypeError when it is not a TextEncoder

class TextEncoder {
  #encoder = true;

  get encoding() {
    checkEncoder(this, "encoding");
    return "utf-8";
  }

  encode(input = "") {
    checkEncoder(this, "encode");
    // USVString: ToString (which throws for a symbol); native code turns lone surrogates into U+FFFD.
    if (typeof input !== "string") input = `${input}`;
    if (input.length <= SHORT) {
      const bytes = new Uint8Array(input.length);
      let i = 0;
      for (; i < input.length; i++) {
        const unit = input.charCodeAt(i);
        if (unit >= 0x80) break;
        bytes[i] = unit;
      }
      if (i === input.length) return bytes;
    }
    return native.encode(input);
  }

  encodeInto(source, destination) {
    checkEncoder(this, "encodeInto");
    requireArguments(arguments.length, 2, "Failed to execute 'encodeInto' on 'TextEncoder'");
    source = typeof source === "string" ? source : `${source}`;
    if (typedArrayTag.call(destination) !== "Uint8Array") {
      throw new TypeError("Failed to execute 'encodeInto' on 'TextEncoder': parameter 2 is not of type 'Uint8Array'");
    }
    native.encodeInto(source, destination, progress);
    return { read: progress[0], written: progress[1] };
  }

  static {
    checkEncoder = (encoder, member) => {
      if (encoder === null || typeof encoder !== "object" || !(#encoder in encoder)) {
        throw new TypeError(`TextEncoder.prototype.${member}: 'this' is not a TextEncoder`);
      }
    };
  }
}

enumerable(TextEncoder.prototype, ["encoding", "encode", "encodeInto"]);
toStringTag(TextEncoder.prototype, "TextEncoder");

// ---- atob and btoa ------------------------------------------------------------------------------

function btoa(data) {
  requireArguments(arguments.length, 1, "Failed to execute 'btoa'");
  const encoded = native.btoa(typeof data === "string" ? data : `${data}`);
  if (encoded === null) {
    throw new DOMException("Failed to execute 'btoa': The string to be encoded contains characters outside of the Latin1 range.",
      "InvalidCharacterError");
  }
  return encoded;
}

function atob(data) {
  requireArguments(arguments.length, 1, "Failed to execute 'atob'");
  const decoded = native.atob(typeof data === "string" ? data : `${data}`);
  if (decoded === null) {
    throw new DOMException("Failed to execute 'atob': The string to be decoded is not correctly encoded.", "InvalidCharacterError");
  }
  return decoded;
}

// Neither interface is serializable: structuredClone refuses them with a DataCloneError.
unserializable(decoderFlags, checkEncoder);

define("TextDecoder", TextDecoder);
define("TextEncoder", TextEncoder);
define("atob", atob);
define("btoa", btoa);
