"use strict";
// TextEncoderStream and TextDecoderStream, as the WHATWG Encoding Standard defines them:
// TransformStreams around the encoding group's codecs. A TextDecoderStream is a streaming
// TextDecoder (the native decoder state the encoding group keeps between `stream: true` calls);
// a TextEncoderStream is TextEncoder plus the one thing a stream adds, a high surrogate that ends a
// chunk held back for the low surrogate that may start the next.

const TransformStream = internals.get("TransformStream");
const TextEncoder = internals.get("TextEncoder");
const TextDecoder = internals.get("TextDecoder");
const { dictionary, enumerable, toStringTag, unserializable } = internals.get("webidl");

const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const decode = TextDecoder.prototype.decode;
const STREAM = Object.freeze({ stream: true });
const decoderGetters = {
  encoding: Object.getOwnPropertyDescriptor(TextDecoder.prototype, "encoding").get,
  fatal: Object.getOwnPropertyDescriptor(TextDecoder.prototype, "fatal").get,
  ignoreBOM: Object.getOwnPropertyDescriptor(TextDecoder.prototype, "ignoreBOM").get,
};

// ---- TextEncoderStream ---------------------------------------------------------------------------

let encoderTransform; // (value, member) => its TransformStream, or a TypeError

class TextEncoderStream {
  #transform;

  constructor() {
    // "pending high surrogate".
    let pending = "";
    this.#transform = new TransformStream({
      // "encode and enqueue a chunk": the chunk converted to a DOMString (a symbol throws).
      transform(chunk, controller) {
        let input = pending + `${chunk}`;
        pending = "";
        if (input.length === 0) return;
        const last = input.charCodeAt(input.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          pending = input[input.length - 1];
          input = input.slice(0, -1);
          if (input.length === 0) return;
        }
        // A lone surrogate left inside becomes U+FFFD's bytes, as TextEncoder writes it.
        controller.enqueue(encode.call(encoder, input));
      },
      // "encode and flush": a high surrogate still waiting is U+FFFD.
      flush(controller) {
        if (pending !== "") controller.enqueue(new Uint8Array([0xef, 0xbf, 0xbd]));
      },
    });
  }

  get encoding() {
    encoderTransform(this, "encoding");
    return "utf-8";
  }

  // The GenericTransformStream mixin's attributes.
  get readable() {
    return encoderTransform(this, "readable").readable;
  }

  get writable() {
    return encoderTransform(this, "writable").writable;
  }

  static {
    encoderTransform = (value, member) => {
      if (value === null || typeof value !== "object" || !(#transform in value)) {
        throw new TypeError(`TextEncoderStream.prototype.${member}: 'this' is not a TextEncoderStream`);
      }
      return value.#transform;
    };
  }
}
enumerable(TextEncoderStream.prototype, ["encoding", "readable", "writable"]);
toStringTag(TextEncoderStream.prototype, "TextEncoderStream");

// ---- TextDecoderStream ---------------------------------------------------------------------------

let decoderSlots; // (value, member) => { decoder, transform }, or a TypeError

class TextDecoderStream {
  #decoder;
  #transform;

  constructor(label = "utf-8", options = undefined) {
    // TextDecoder's constructor converts the label and the options and refuses what it refuses,
    // with the same errors; its name is this interface's.
    let decoder;
    try {
      decoder = new TextDecoder(label, dictionary(options, "Failed to construct 'TextDecoderStream'"));
    } catch (error) {
      if (error instanceof Error) error.message = error.message.replace("'TextDecoder'", "'TextDecoderStream'");
      throw error;
    }
    this.#decoder = decoder;
    this.#transform = new TransformStream({
      // "decode and enqueue a chunk": the chunk converted to an AllowSharedBufferSource.
      transform(chunk, controller) {
        if (chunk === null || typeof chunk !== "object") {
          throw new TypeError("Failed to execute 'write' on 'TextDecoderStream': the chunk is not an ArrayBuffer or an ArrayBufferView");
        }
        const text = decode.call(decoder, chunk, STREAM);
        if (text.length > 0) controller.enqueue(text);
      },
      // "flush and enqueue": what the decoder held back, decoded as the end of the stream.
      flush(controller) {
        const text = decode.call(decoder);
        if (text.length > 0) controller.enqueue(text);
      },
    });
  }

  get encoding() {
    return decoderGetters.encoding.call(decoderSlots(this, "encoding").decoder);
  }

  get fatal() {
    return decoderGetters.fatal.call(decoderSlots(this, "fatal").decoder);
  }

  get ignoreBOM() {
    return decoderGetters.ignoreBOM.call(decoderSlots(this, "ignoreBOM").decoder);
  }

  // The GenericTransformStream mixin's attributes.
  get readable() {
    return decoderSlots(this, "readable").transform.readable;
  }

  get writable() {
    return decoderSlots(this, "writable").transform.writable;
  }

  static {
    decoderSlots = (value, member) => {
      if (value === null || typeof value !== "object" || !(#transform in value)) {
        throw new TypeError(`TextDecoderStream.prototype.${member}: 'this' is not a TextDecoderStream`);
      }
      return { decoder: value.#decoder, transform: value.#transform };
    };
  }
}
enumerable(TextDecoderStream.prototype, ["encoding", "fatal", "ignoreBOM", "readable", "writable"]);
toStringTag(TextDecoderStream.prototype, "TextDecoderStream");

// Neither is serializable: structuredClone refuses them with a DataCloneError.
unserializable(encoderTransform, decoderSlots);

define("TextEncoderStream", TextEncoderStream);
define("TextDecoderStream", TextDecoderStream);
