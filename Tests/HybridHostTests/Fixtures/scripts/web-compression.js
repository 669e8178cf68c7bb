// CompressionStream, DecompressionStream and TextDecoderStream as node 20 and hybrid both run
// them. WebCompressionTests runs this file under `hybrid run` and under `node` and compares stdout
// byte for byte. Node bundles its own zlib (Chromium's), whose deflate matches the system zlib's
// only where both make the same choices: literals, long runs, the empty stream. So the compressed
// bytes printed are of such inputs; the rest is printed as what must agree (round trips, node's
// own compressed bytes decompressed, the errors). Errors print as "rejected": node 20 rejects with
// zlib's Error, the standard (and hybrid) with a TypeError.
"use strict";

const formats = ["gzip", "deflate", "deflate-raw"];
const encoder = new TextEncoder();

// What node's zlib.gzipSync, deflateSync and deflateRawSync make of numbersText().
const nodeCompressed = {
  "gzip": "H4sIAAAAAAAAAy2XSZLcMAwE73xLHQgQ6/8/NpHqOTjssMcSCdSSujKFVlby1CvFqkJjx+6VuckiZLWyLbmnPEs+q+ehV3biXkWYYkLpq+xSeaq61L7qCU3Y2Xu1ZYqWmct65TF6tnrrimplxCl/6hvqaU27NldtsnJ5pl7ytj4ZpYpW59Vkasu1Ib+pZ6N4T5n3VK16r9aeymTDC1sRoxxTW2nyHUsZ19pVRCjX1HE1a6qWu+v1nnyj2tWUK6/cWm9Kma1+V3tTdvP4hKJSFaN5T/HkzxXOEUpjpmfH31U8U73QvFWtvEcxq76utZZln9el3Nb4VY18U+mhzpSZPEox77S7tp7cV9GhdtP2lUcolim5nh9fU6ZruO99en1Vb7V25ZdHmTrn1NULU3lo78ptlXfUuzJLhV317eOr93jC076R1yi7NTNyD+VbTdaxHaWtJly2V2mtiZLfq3xPw718TlZr78g7VLbaKj1GPqtKhV9197FcpV/NPHkzwBGzvKbukLUrY8/66D1Xc1d/SmOfq2foq2Sc0O2sc9lQo8tO5bgsFJ4aLoWa9x17qUQiCm9Nht4t9WvZPpWPZk56awv1haZXL1AfD3E11rlPVfdYuOo+zSozhOI4lWKuNlORefaF4o3WTeHsqBQ+WlvFSy13zns2WPnTIpQbeqGMp27lYuBRRR6bVjPbDDUnc3YzCsM2qeRk79R1WZWarbNKPL6ljVb6k11T5RzHHNf0prXJwF32Qo39rmm6FF2nR5Urr9Rg3LpqV6HUXk2jzjhmpcZM8bQ4s0fOurh68ga1+XkZ2k6Vm7xWs6WMkV/XvFTsk+U7TZokG3Z1tYIl3VUXjiuZMQM7kU/2WkOAzch6NFw0TP5aa67ivRayUV9TXBywmjtKdzkLek+V77xOEQ7Xle/Ki7jDzCTAyhjnxqlXesNmiB5TMUZOcnHFVe7o5RxD4oUJW29TVqm1UM0oKuThcj89pixy0WRY+aLXUazLZzSlYbEY6IsYZK3B+OOKLT3CmPjyPh3k99PblXsrW/PJAaeWXofc4mRputXYqpGnyfvJPvlfjY2q52Rgy5D3lb3RaL6o5NKInb7J4xjvmUiFcfUnkFCiTmyWBL8fy1CONkyDrXJVbcpBvKagRt4e/1KecDQxjuCoozFXB1lCOdVJssrQyShu6WXp4Q9qxtBCyV6dHfE3o8Vi6NNSM3RAauJp/J25qSa3O9X11PnUkeq36sfvj1/n9+f9/Rs/w8/27//yjPHHM8/37NnvXd87+3EEGm44Fac7nJLTcmpOzy24DbfiduXFbQ+35vZMgWkgRfvNiFm9t8zuMENmyUyZLTNm1jli8k6BpB82wmbYEJtiY/bbH3t8yGzysF/2zL7n2z0aQAtoor6FzEEraAbtoCG0hKbQFlFrgeIOykOBKDH70yX6RKfodZ3334OO0TO6Rt9fPfxUj/qnaJqDJ/AGHsEreAbv4CG8hKnDDw7DaTgO5+FAnIgjceZj0jsHx+JcHIyTcTTOxuE4fZZG6kMCkAQkAslAQpAUFBKRllToO+QJuUK+kDPkDbljYAutCBj4IZ3yM0J/qUV6kWKkGanWAJPFIe1IPdKPFCQNSUXSkZS0fKTmIT1JUdKUVCVd60MIgiVIX20esphMJpvzk9N8mU12k+Gx1F4csp2Mb/8Sn+SnAWgCDttYsg49QV/Y11j+9Qh9Qq/QL4X0rh16h/6hh+gjeol+oqfoq3q016HFaDNajXaj5b62Y5TTtCBteGhF9BXvq8obX3N+DUqT5qVZz9ewLOBr3Po1MHX0BX7Q0DT1obH7a29KPINKp9m/hi+oCjjLHwGQ7LEfGUAIkALEMJh1DhwBT8AV8AWc4R9zwB61yLkOTAKbWPxIhfhgOBGCZBJg9zgQDqQD8UA+EBAkBBFBRhk0kh+ICXL6MG4+noKr4Cs4q7vhrsP2QH5uz9htP0qD1vIDZIpmDjQH1UF3UB60B/VBf1DgZEGFBzqEEqFFqBF6hCKhSVZHO9g9sCbMCXvCoLAoTPqx6YVUIdYDuUKwkCxEC9lCuJAuxAsEEl3bHw/DxfAxnAwv76dUh6Ph6WP20TWUDW3XfOwNg8PiBo9YHxgdVofZYREI/iM22OGK7DM79Unnn//f9zXAVwFfB3wl2E2+Gg5fD3xF8DXBVwXfNOXftwbfHA8pu58/udPzTKwNAAA=",
  "deflate": "eJwtl0mS3DAMBO98Sx0IEOv/PzaR6jk47LDHEgnUkroyhVZW8tQrxapCY8fulbnJImS1si25pzxLPqvnoVd24l5FmGJC6avsUnmqutS+6glN2Nl7tWWKlpnLeuUxerZ664pqZcQpf+ob6mlNuzZXbbJyeaZe8rY+GaWKVufVZGrLtSG/qWejeE+Z91Steq/WnspkwwtbEaMcU1tp8h1LGdfaVUQo19RxNWuqlrvr9Z58o9rVlCuv3FpvSpmtfld7U3bz+ISiUhWjeU/x5M8VzhFKY6Znx99VPFO90LxVrbxHMau+rrWWZZ/XpdzW+FWNfFPpoc6UmTxKMe+0u7ae3FfRoXbT9pVHKJYpuZ4fX1Oma7jvfXp9VW+1duWXR5k659TVC1N5aO/KbZV31LsyS4Vd9e3jq/d4wtO+kdcouzUzcg/lW03WsR2lrSZctldprYmS36t8T8O9fE5Wa+/IO1S22io9Rj6rSoVfdfexXKVfzTx5M8ARs7ym7pC1K2PP+ug9V3NXf0pjn6tn6KtknNDtrHPZUKPLTuW4LBSeGi6Fmvcde6lEIgpvTYbeLfVr2T6Vj2ZOemsL9YWmVy9QHw9xNda5T1X3WLjqPs0qM4TiOJVirjZTkXn2heKN1k3h7KgUPlpbxUstd857Nlj50yKUG3qhjKdu5WLgUUUem1Yz2ww1J3N2MwrDNqnkZO/UdVmVmq2zSjy+pY1W+pNdU+UcxxzX9Ka1ycBd9kKN/a5puhRdp0eVK6/UYNy6aleh1F5No844ZqXGTPG0OLNHzrq4evIGtfl5GdpOlZu8VrOljJFf17xU7JPlO02aJBt2dbWCJd1VF44rmTEDO5FP9lpDgM3IejRcNEz+Wmuu4r0WslFfU1wcsJo7Snc5C3pPle+8ThEO15Xvyou4w8wkwMoY58apV3rDZogeUzFGTnJxxVXu6OUcQ+KFCVtvU1aptVDNKCrk4XI/PaYsctFkWPmi11Gsy2c0pWGxGOiLGGStwfjjii09wpj48j4d5PfT25V7K1vzyQGnll6H3OJkabrV2KqRp8n7yT75X42NqudkYMuQ95W90Wi+qOTSiJ2+yeMY75lIhXH1J5BQok5slgS/H8tQjjZMg61yVW3KQbymoEbeHv9SnnA0MY7gqKMxVwdZQjnVSbLK0Mkobull6eEPasbQQslenR3xN6PFYujTUjN0QGriafyduakmtzvV9dT51JHqt+rH749f5/fn/f0bP8PP9u//8ozxxzPP9+zZ713fO/txBBpuOBWnO5yS03JqTs8tuA234nblxW0Pt+b2TIFpIEX7zYhZvbfM7jBDZslMmS0zZtY5YvJOgaQfNsJm2BCbYmP22x97fMhs8rBf9sy+59s9GkALaKK+hcxBK2gG7aAhtISm0BZRa4HiDspDgSgx+9Ml+kSn6HWd99+DjtEzukbfXz38VI/6p2iagyfwBh7BK3gG7+AhvISpww8Ow2k4DufhQJyII3HmY9I7B8fiXByMk3E0zsbhOH2WRupDApAEJALJQEKQFBQSkZZU6DvkCblCvpAz5A25Y2ALrQgY+CGd8jNCf6lFepFipBmp1gCTxSHtSD3SjxQkDUlF0pGUtHyk5iE9SVHSlFQlXetDCIIlSF9tHrKYTCab85PTfJlNdpPhsdReHLKdjG//Ep/kpwFoAg7bWLIOPUFf2NdY/vUIfUKv0C+F9K4deof+oYfoI3qJfqKn6Kt6tNehxWgzWo12o+W+tmOU07QgbXhoRfQV76vKG19zfg1Kk+alWc/XsCzga9z6NTB19AV+0NA09aGx+2tvSjyDSqfZv4YvqAo4yx8BkOyxHxlACJACxDCYdQ4cAU/AFfAFnOEfc8Aetci5DkwCm1j8SIX4YDgRgmQSYPc4EA6kA/FAPhAQJAQRQUYZNJIfiAly+jBuPp6Cq+ArOKu74a7D9kB+bs/YbT9Kg9byA2SKZg40B9VBd1AetAf1QX9Q4GRBhQc6hBKhRagReoQioUlWRzvYPbAmzAl7wqCwKEz6semFVCHWA7lCsJAsRAvZQriQLsQLBBJd2x8Pw8XwMZwML++nVIej4elj9tE1lA1t13zsDYPD4gaPWB8YHVaH2WERCP4jNtjhiuwzO/VJ55//3/c1wFcBXwd8JdhNvhoOXw98RfA1wVcF3zTl37cG3xwPKbufP+ylpXQ=",
  "deflate-raw": "LZdJktwwDATvfEsdCBDr/z82keo5OOywxxIJ1JK6MoVWVvLUK8WqQmPH7pW5ySJktbItuac8Sz6r56FXduJeRZhiQumr7FJ5qrrUvuoJTdjZe7VlipaZy3rlMXq2euuKamXEKX/qG+ppTbs2V22ycnmmXvK2Phmlilbn1WRqy7Uhv6lno3hPmfdUrXqv1p7KZMMLWxGjHFNbafIdSxnX2lVEKNfUcTVrqpa76/WefKPa1ZQrr9xab0qZrX5Xe1N28/iEolIVo3lP8eTPFc4RSmOmZ8ffVTxTvdC8Va28RzGrvq61lmWf16Xc1vhVjXxT6aHOlJk8SjHvtLu2ntxX0aF20/aVRyiWKbmeH19Tpmu47316fVVvtXbll0eZOufU1QtTeWjvym2Vd9S7MkuFXfXt46v3eMLTvpHXKLs1M3IP5VtN1rEdpa0mXLZXaa2Jkt+rfE/DvXxOVmvvyDtUttoqPUY+q0qFX3X3sVylX808eTPAEbO8pu6QtStjz/roPVdzV39KY5+rZ+irZJzQ7axz2VCjy07luCwUnhouhZr3HXupRCIKb02G3i31a9k+lY9mTnprC/WFplcvUB8PcTXWuU9V91i46j7NKjOE4jiVYq42U5F59oXijdZN4eyoFD5aW8VLLXfOezZY+dMilBt6oYynbuVi4FFFHptWM9sMNSdzdjMKwzap5GTv1HVZlZqts0o8vqWNVvqTXVPlHMcc1/SmtcnAXfZCjf2uaboUXadHlSuv1GDcumpXodReTaPOOGalxkzxtDizR866uHryBrX5eRnaTpWbvFazpYyRX9e8VOyT5TtNmiQbdnW1giXdVReOK5kxAzuRT/ZaQ4DNyHo0XDRM/lprruK9FrJRX1NcHLCaO0p3OQt6T5XvvE4RDteV78qLuMPMJMDKGOfGqVd6w2aIHlMxRk5yccVV7ujlHEPihQlbb1NWqbVQzSgq5OFyPz2mLHLRZFj5otdRrMtnNKVhsRjoixhkrcH444otPcKY+PI+HeT309uVeytb88kBp5Zeh9ziZGm61diqkafJ+8k++V+NjarnZGDLkPeVvdFovqjk0oidvsnjGO+ZSIVx9SeQUKJObJYEvx/LUI42TIOtclVtykG8pqBG3h7/Up5wNDGO4KijMVcHWUI51UmyytDJKG7pZenhD2rG0ELJXp0d8TejxWLo01IzdEBq4mn8nbmpJrc71fXU+dSR6rfqx++PX+f35/39Gz/Dz/bv//KM8cczz/fs2e9d3zv7cQQabjgVpzucktNyak7PLbgNt+J25cVtD7fm9kyBaSBF+82IWb23zO4wQ2bJTJktM2bWOWLyToGkHzbCZtgQm2Jj9tsfe3zIbPKwX/bMvufbPRpAC2iivoXMQStoBu2gIbSEptAWUWuB4g7KQ4EoMfvTJfpEp+h1nfffg47RM7pG3189/FSP+qdomoMn8AYewSt4Bu/gIbyEqcMPDsNpOA7n4UCciCNx5mPSOwfH4lwcjJNxNM7G4Th9lkbqQwKQBCQCyUBCkBQUEpGWVOg75Am5Qr6QM+QNuWNgC60IGPghnfIzQn+pRXqRYqQZqdYAk8Uh7Ug90o8UJA1JRdKRlLR8pOYhPUlR0pRUJV3rQwiCJUhfbR6ymEwmm/OT03yZTXaT4bHUXhyynYxv/xKf5KcBaAIO21iyDj1BX9jXWP71CH1Cr9AvhfSuHXqH/qGH6CN6iX6ip+irerTXocVoM1qNdqPlvrZjlNO0IG14aEX0Fe+ryhtfc34NSpPmpVnP17As4Gvc+jUwdfQFftDQNPWhsftrb0o8g0qn2b+GL6gKOMsfAZDssR8ZQAiQAsQwmHUOHAFPwBXwBZzhH3PAHrXIuQ5MAptY/EiF+GA4EYJkEmD3OBAOpAPxQD4QECQEEUFGGTSSH4gJcvowbj6egqvgKziru+Guw/ZAfm7P2G0/SoPW8gNkimYONAfVQXdQHrQH9UF/UOBkQYUHOoQSoUWoEXqEIqFJVkc72D2wJswJe8KgsChM+rHphVQh1gO5QrCQLEQL2UK4kC7ECwQSXdsfD8PF8DGcDC/vp1SHo+HpY/bRNZQNbdd87A2Dw+IGj1gfGB1Wh9lhEQj+IzbY4YrsMzv1Seef/9/3NcBXAV8HfCXYTb4aDl8PfEXwNcFXBd805d+3Bt8cDym7nz8=",
};

function numbersText() {
  let text = "";
  for (let i = 0; i < 900; i++) text += String((i * i) % 977) + (i % 10 === 9 ? "\n" : ",");
  return text;
}

// Text-like bytes from a fixed seed: words drawn by a linear congruential generator.
function seededText(length) {
  const words = ["order", "widget", "shipped", "to", "Downing", "St", "42", "EUR", "total", "item"];
  let state = 12345;
  let text = "";
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += words[state % words.length] + (state % 7 === 0 ? "\n" : " ");
  }
  return encoder.encode(text.slice(0, length));
}

function base64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// FNV-1a, 32 bits, in hex.
function fnv(bytes) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

function concat(parts) {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

// Writes `chunks` into the transform, closes it, reads everything: the bytes, or "rejected".
async function through(transform, chunks) {
  const writer = transform.writable.getWriter();
  for (const chunk of chunks) writer.write(chunk).catch(() => {});
  writer.close().catch(() => {});
  const reader = transform.readable.getReader();
  const parts = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!(value instanceof Uint8Array)) return `not a Uint8Array: ${Object.prototype.toString.call(value)}`;
      parts.push(value);
    }
  } catch {
    return "rejected";
  }
  return concat(parts);
}

// `bytes` cut into pieces of `size` bytes.
function pieces(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

async function main() {
  const same = { empty: new Uint8Array(0), hello: encoder.encode("hello world"), repeated: encoder.encode("order 1 widget\n".repeat(600)) };
  for (const format of formats) {
    for (const [name, input] of Object.entries(same)) {
      const whole = await through(new CompressionStream(format), [input]);
      const chunked = await through(new CompressionStream(format), pieces(input, 1000));
      console.log(format, name, base64(whole), "chunked the same:", base64(chunked) === base64(whole));
    }
  }

  const text = seededText(300000);
  console.log("text", text.length, fnv(text));
  for (const format of formats) {
    const compressed = await through(new CompressionStream(format), pieces(text, 65536));
    const back = await through(new DecompressionStream(format), pieces(compressed, 4096));
    console.log(format, "round trip", back.length, fnv(back), "under a third:", compressed.length * 3 < text.length);
    if (format === "gzip") console.log("gzip header", base64(compressed.subarray(0, 10)));
  }

  const numbers = encoder.encode(numbersText());
  for (const format of formats) {
    const compressed = fromBase64(nodeCompressed[format]);
    const back = await through(new DecompressionStream(format), pieces(compressed, 97));
    const bytewise = await through(new DecompressionStream(format), pieces(compressed, 1));
    console.log(format, "node's bytes", back.length, fnv(back) === fnv(numbers), fnv(bytewise) === fnv(numbers));
  }

  const zeros = await through(new CompressionStream("gzip"), [new Uint8Array(1 << 20)]);
  const inflated = await through(new DecompressionStream("gzip"), [zeros]);
  console.log("a megabyte of zeros", inflated.length, inflated.every((byte) => byte === 0));

  for (const format of formats) {
    const compressed = fromBase64(nodeCompressed[format]);
    console.log(format, "corrupt", await through(new DecompressionStream(format), [encoder.encode("not compressed at all")]));
    console.log(format, "truncated", await through(new DecompressionStream(format), [compressed.subarray(0, compressed.length >> 1)]));
    console.log(format, "empty", await through(new DecompressionStream(format), []));
  }

  const decoded = [];
  const words = encoder.encode("grüße, 世界 🌍");
  const reader = new Blob([words]).stream().pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    decoded.push(value);
  }
  console.log("text decoder stream", JSON.stringify(decoded.join("")));
}

// A failure prints, and the comparison with node's output fails on it.
main().catch((error) => console.log("failed", String(error), error.stack));
