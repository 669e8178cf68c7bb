// WebCrypto where OpenSSL's libcrypto does the work (swift-crypto lacks it: Sources/WebPlatform/
// WebCryptoLibCrypto.swift), with fixed keys and inputs, so that every line is the same under node
// and under `hybrid run` (WebCryptoTests compares them): Ed448's deterministic signatures (RFC 8032
// §7.4) and X448's shared secret (RFC 7748 §6.2), their keys in every format, and, for the
// randomized RSA paddings (OAEP with a label or SHA-384/512, PSS with salts not as long as the
// hash), the ciphertexts and signatures that node made and that hybrid made (once, with this key),
// each decrypted or verified by both, then made afresh and checked. Ed448's JWK is printed without
// alg, which node 20 adds and the web-platform-tests say is absent.
const subtle = crypto.subtle;
const encoder = new TextEncoder();
const hex = (buffer) => Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
const bytes = (text) => new Uint8Array((text.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
const material = (jwk) => JSON.stringify(["kty", "crv", "x", "d"].map((member) => jwk[member]));
const message = encoder.encode("ship 3 widgets to Leeds");

async function outcome(promise) {
  try {
    const value = await promise;
    return value instanceof ArrayBuffer ? hex(value) : value;
  } catch (error) {
    return error.name;
  }
}

// Ed448, RFC 8032 §7.4: "-----Blank" and "-----1 octet", from PKCS#8 (RFC 8410).
const ed448Vectors = [
  ["6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b", ""],
  ["c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e", "03"],
];
for (const [secret, data] of ed448Vectors) {
  const privateKey = await subtle.importKey("pkcs8", bytes("3047020100300506032b6571043b0439" + secret), "Ed448", true, ["sign"]);
  const jwk = await subtle.exportKey("jwk", privateKey);
  const publicKey = await subtle.importKey("jwk", { kty: "OKP", crv: "Ed448", x: jwk.x }, "Ed448", true, ["verify"]);
  const signature = await subtle.sign("Ed448", privateKey, bytes(data));
  console.log("ed448 public", hex(await subtle.exportKey("raw", publicKey)));
  console.log("ed448 signature", hex(signature));
  console.log("ed448 verifies", await subtle.verify("Ed448", publicKey, signature, bytes(data)),
    await subtle.verify("Ed448", publicKey, signature, encoder.encode("x")), await subtle.verify("Ed448", publicKey, signature.slice(1), bytes(data)));
  console.log("ed448 spki", hex(await subtle.exportKey("spki", publicKey)));
  console.log("ed448 pkcs8", hex(await subtle.exportKey("pkcs8", privateKey)));
  console.log("ed448 jwk", material(jwk), material(await subtle.exportKey("jwk", publicKey)));
}
const edPair = await subtle.generateKey("Ed448", false, ["sign", "verify"]);
const edSignature = await subtle.sign({ name: "Ed448", context: new Uint8Array(0) }, edPair.privateKey, message);
console.log("ed448 generated", edPair.privateKey.type, edPair.publicKey.type, JSON.stringify(edPair.publicKey.algorithm), edSignature.byteLength,
  await subtle.verify("Ed448", edPair.publicKey, edSignature, message));

// X448, RFC 7748 §6.2: Alice's and Bob's keys, each side's secret.
const x448Keys = {
  alice: "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b",
  bob: "1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d",
};
const x448 = {};
for (const [name, secret] of Object.entries(x448Keys)) {
  const privateKey = await subtle.importKey("pkcs8", bytes("3046020100300506032b656f043a0438" + secret), "X448", true, ["deriveBits", "deriveKey"]);
  const jwk = await subtle.exportKey("jwk", privateKey);
  const publicKey = await subtle.importKey("jwk", { kty: "OKP", crv: "X448", x: jwk.x }, "X448", true, []);
  x448[name] = { privateKey, publicKey };
  console.log("x448", name, "public", hex(await subtle.exportKey("raw", publicKey)));
  console.log("x448", name, "spki", hex(await subtle.exportKey("spki", publicKey)));
  console.log("x448", name, "pkcs8", hex(await subtle.exportKey("pkcs8", privateKey)), material(jwk));
}
console.log("x448 secret", hex(await subtle.deriveBits({ name: "X448", public: x448.bob.publicKey }, x448.alice.privateKey, null)));
console.log("x448 secret", hex(await subtle.deriveBits({ name: "X448", public: x448.alice.publicKey }, x448.bob.privateKey, 448)));
console.log("x448 first 100 bits", hex(await subtle.deriveBits({ name: "X448", public: x448.alice.publicKey }, x448.bob.privateKey, 100)));
const derived = await subtle.deriveKey({ name: "X448", public: x448.bob.publicKey }, x448.alice.privateKey, { name: "AES-GCM", length: 256 }, true, ["encrypt"]);
console.log("x448 derived AES key", hex(await subtle.exportKey("raw", derived)));

// RSA-OAEP and RSA-PSS over one 2048-bit key (node's, from Fixtures/webcrypto/asymmetric-keys.json).
const rsa = {
  kty: "RSA",
  n: "sJoXz9Inq4A1jjHedX-i3E-ZAogSZBOZgklnzAfFXMeXzCP6QsDmiwDXRk-XfPG0u2jqHLm-WAwe9UOX8MCWq5s8idDwglK2PorLRnMhK2LdRQpsI0zIztuuX7L369x2CXsx8IGubsg72u9QrTlUDfpJpqAPfLIkniKtUpyqlam3mAIspzFWHooNpcNJuKZFx5wcGy9zc9oAqNgUuBamQH5aPtXKF1Xgr4DnTiil69A9siAUHEqBVQ1XgasDr4SU3b229Eb0ZqfuUEeSnU5SXL8m8QvKCareBoS3Q4LfMoKr76ASzB4kxDGPVlZiZqH7e2WwJe6uofjeGF5Q7-Uspw",
  e: "AQAB",
  d: "SYSUhhjsF8qjQONEwzBTyZg_T9z6nvvDy4eodLkFcdbLPBn8HF72eoZql-QZYdOzU9NcpoGymi_NkXfGoFxkPOM-g_bdsLsjEA0yi0zxUYDyMUQh-V4FOIweXst_xwn7f33wL7mktoyX0lAPC1XSxpDbqUh3ugblFInGEp6SqwOO_teghBa77-TUxmYGxurVr8LmJrD4X9K_JuJ-_3Y8rnWUaAb0xzRqcXSRsCyUGxwjrVj1zaTG2IT8mbHRbNfa-OGaE1-CdsIdIz7pF3tiH22tTn_LOmeMmxuAiaHUeFm3yflwD_fOgTgssHURqjHSJJFrPUnuJyqNn2IEeHDa5Q",
  p: "5uLhvJEcO770fk-BXfotly6PyGCEdORB6-tekWtCTRQhwj8zreawBy5t1mJdUDU8tasVIdreq74fh93TLHyWnbIMAh7xELGD1sJ_WOu2sSSfXBpGz1g5Oh7aSy-X7BOzny2QsFovP4XY1bwyvqVrq3J_dNSS8wivrImYBc_bbxs",
  q: "w8-kjSiNFkuNk-xYZtDjyWoX4ihR8jp-6RjfEJbw-bcQMQLX96jJALaqx1lXg5m4Z7FZM5-U-bxoTeedZBGojeNF67duG_xy3HMg3vex-O-mQL0O6bK3qb6c3KhNSSd3wqWbmB-FVpf2_64ZisYeqKpySLXk5zdWG2Pn2EdRdWU",
  dp: "VXpzxkMW58unasf2hhtkG4-CbdXF1BzZhwVJqp7CGhU09lw9vskkLFR1F6StFU_QXRWsqi8EtyKZO8zVLKgnftR2-6YG63486Bpz2TDTHzwGv6t-wa7Q6QKZILLLFPyqSGkvIwsQaP0drOuTAd_uP7gRFejJSq7RkxgRrz0n6Tc",
  dq: "DOnKrkx4UXoWEiVKBy3Ld-L5RD7oeJMG_5RWUZ_CsJU0Cidn2rtU1ik1xgPMU691i9EUUuU5S-by8gBOTuUjOog8ejkUl9_kK0mkZ0_qesJDMo3FSAAzQIyDh8HJpwNlUH7fbf7WKknHTkFLCe3a48Cp3MWyHNV3ZkMGbSr24kk",
  qi: "lT4B1D-k2p7xWVw8wFtrZZP0AL-zVop1bOhxrB6xmGuYvhCkdItly4yo3AxQ03g366ge9w517gsjZGYY92XexMeHROlAtFx_Cot7nnKZnTcsWTef0Fpuf0fTWvzNoqDPF_4CHZbMKikDNUaLtkl8CNqCBWxf1R77vO-GhJp_vv4",
};
const rsaPublic = { kty: "RSA", n: rsa.n, e: rsa.e };
const oaepCases = [["SHA-1", "order 42"], ["SHA-256", "order 42"], ["SHA-384", null], ["SHA-512", "order 42"]];
const pssCases = [["SHA-256", 0], ["SHA-384", 20], ["SHA-512", 100]];
const made = {
  node: {
    oaep: {
      "SHA-1":
        "5d1542cdc799fe75c1e9a35faab1ecc3b446b26e0f4241c7babd06dd4f374200d54458f75d54b0c5cb9a08cf387d5c84462e03f51dde83e8511281c0b7a36c6066fd38ad6f3f16407d3fb1ba22a988430f6409a75924dcffb33b24af5be17f1408178ebda527018011c39330b788b7d5de0b4abceb25cc8abf71b6a534d32267953148726a7f42671fddaa19e12ceeec26890a35a7458ad199589ca9633cc5622677fc3b829c00a1be1041bfd58cc1a4f1b9ee767e64eff4752ca723c9873f3cd1274cf48ebb2d94b54894ac2f2c819a385a96d50e66beb67f0d4ceaa4f38b80cf1cd2efc3c13e17ca6ec1ac1623a5a177b24e53d03d1bb271143adac4bc0b3f",
      "SHA-256":
        "909bfb14c6f2c2848f57b5746df495627c95bac0d3ab5f940f1feb88a693cb9b0f8211fc74a3d0df5b64a426759d2390620942f29e0dd8bf919664038df9f4b5e752c3106017bd8cea2a0ef93d88113b061ef24e9c2e2ebea1fb3e45adf2806c6bb2b462c7b3ffd028a0d5de78d8ef8515f59436f08fa3069de28982041da2847efef01f2f01f673fe241ec2d1ca2ed8b2527ca6bc1f1eb23a69c05fd5e03b6960d7535d80f23a644dac7a6496fb677cfe0c544cf4ab032f1695ae1c9ed1f0c028787b7fdef77805e2f2f5f227f74078d2ae169b5836b54ea7e4200209bd467755e076d483c1bccb18c902e12d6e718d301222da2301cbe588aef77487689d23",
      "SHA-384":
        "76ab2114c4d432cdcc75d66723dcdd1682ea25a4714bcccd71536fe91576d29b07aa26d98b49f5e0eedd3aba1361b284f9b6a9059e340753602cc31455c1c52084fc19c36c46dbde073d55b8b5977ea0e20a42319fb759038d99b9cfb67389de42010c04fc97a74b8d494afdbf2b14219d7068be93fb7b64527dad846c91f47ca0c00d4ac0dd0804b0a96f505d74e9ab9e07159eb4ce17b0bda84bf5ab8a37ef18da995b39bb786ec02fac2d7e05fad405e23eabcd3bee4a4fe97282ed72c71b52a74874f5864bad50206593d80f2966c851842827183719e2e4224623b54a5b376ac517ef35dce027296263365550ba890dbbbaf540e3be2d83161ec7e91b1f",
      "SHA-512":
        "5f8ac6c72f6e17edc026ac3093c112b40e0d5a80c5101fff0bd69ad6056c92b56730eb301b3b415e3268c477d69799bbce8b175ce9c9e162fb922004bee85dd19b890c10d27f40708ce8d0065278860a906c5f9e4fcf1f60cdb3094d6fd850885bbd7ac0188fa2f418eec1a121f2a1e99cbd3d42f6697c8fccd1ad8ee8b859cc3b84b07991363fba936e5ef1dcd5cdd641b16f7cf3ab88243478c5154208f5c5e19d72d4e787f9edca3a5d8e1b4cffc4634756bfc046cac13a72df15d4aec0ca569c2bdc7bc3ace589fcbb0d08fb8109cbfbeb75b3521755f58f91b54a7a65919b529bd11ab6447a99c7a4c78e830458bb9494795db0810338b1897e01d705b1",
    },
    pss: {
      "SHA-256":
        "abd3ecbdf74ebfa42a18a2f8d2fb43fab698d21acc154655511e50a8c771d26845ee37192a8e107ce0d8398affc69001051b9f82fb52da4a3b587a7c3d0043b34f65aee12485a669738c99a9107c04ffc6894b688d23110689110689b8c372152304b5aa25abdaad8145c886ed6906419f45e774c2b475372206aa4b588932b05922aa51230934ea31a288162d3a835a1ea6645c5fcc3e434150b1299f1c44749ee2a930badf4ae1377528e31fa2fb0c374e7f37711491c362504961236e5103cdef9305f31f4f930d97e5817eb691f3ab5cbe40391f8a655f1b2ebea696b0d8be6eb66bfef78eed948cab5c646efc40c9479233009775f4c5654320e86cf689",
      "SHA-384":
        "04e38211d3792397df07214b026febad623ecd4e1948980c92a35034ed79c50d801e1ad5343b341ac49d77b4bcd041a2c98e573c8759e03d9c721c5ddaa545ed82f435950a2f2e1e4c55f0e043ea291ed4db4e936e8090d9b361f2a53d5a63d6cafb6cedee89bc681659352c2a1e2e0956bd9847b9332fad3794677f1c76d701968464c6b65d624dc4fd4b8075525c19c36bcb2b0c6d85f4d691526b2904a357b2ea5a1bd987c167737acb6db5540cbeb8743a17079a37da1b0fc559835d512304967029657001ebf73277c93d36fb785ce58a8aab727bddf0b1b61396c72da56f1c019cfc43c4305bb595e1fd437c4ed5f09164933e0b73c7459be6c0c0f7f0",
      "SHA-512":
        "18928da9ef854f513169c631a9e5f1c9c486f17cede6b4720d4f2d626dc0f82e144aa74e05ea8e3796ad43cb6d12cc74ad21e26bb1987dc7b11b743dae390056b92e58fec7fc5139638d3ff2b48d448666a7682d163d1c40cd0c0f6c07d32e52768d815a677321bfd7db5f4f554b486ae40649c6c47b57e96aecb4a47f6f1eecd7039a08d755265f3ff82b441119c87c99424c948f64712e6e6a98815f982750dae4c5be62ffdd5319267e7de33c2d8f982da645ed27237ad611a4c7068cd9de804617c205cb497a7ad73c4604e06e527fe009a7c4a43f7dde57629135374ce6bae38bff48ac500fda555f0cb90512dfa56ee36358e0ee895f971130f17bd76e",
    },
  },
  hybrid: {
    oaep: {
      "SHA-1":
        "5249655124d204b4b195c32a265c8bf9f0d72edf44d6327adf06b06191760335c14eecfdb4a2fba9ab531a9172d1a124be61ef37b0df3c9a74be4e864db090bf36ea6673e7e9cfc159fa16400dba6e2796e173e5b76a6a75ae91b747adabaf40ae4d076a823db212554d971527e536a9d5a9fc67c869f3f7a6197dda3ed0fb52184c1747a27756471fcc36cac1aa77c888956005c15945a6705df6576b6160d56e16bd27a4962a145d4ad45573e52d0c71a1f45ae02c1770dd558a7ecc35544b6fde2bea1ba11ea7688c7a2ef48651124347e393c56634070499a6950380ad4458060c0fab7394d9d6c9301b8d847d8bdcee8518e0f0b46027cdf72653a106f0",
      "SHA-256":
        "9b54e1c67427eb5ad9d99ffd07dafad74a03659cde6afd22f112238039cbcd21bcd3542a9407e050a2ca849f715f884619e365c50282376e2d1834024bc41669b1f364c1f3cf9a0831d44d16c78120fa13101d71eaa13822eaa948fa4b75e855ade959f53af0273fc0a17be52975f527936aa607a00a5cecb9d4104f47471e25629765b56360adf4009917b0d1268507ce6b798117f435a969c16cd1c2650cd761b89f5f9337070c61c8259bfe5302e5bf15d3df4f92789e4d66b24a591cd0d9d3d6de323bfb09140826b713a2229e9827bf14013ac8bc0b6c96fda793af6d18e04d5904ed6e86484b6949cf6a35ac7fcd00f0c8c2eca18ebc1441f7d102a5e1",
      "SHA-384":
        "73936d119acb93c36f0c2d576380ecd50887c00a92fc4729134c6825a3925d1a7c111358160fa775abfcf928a8fd44faf70f2844c1e9d48365189d96531219cc785a7cc5c05efaeaac54099248fbb4842a4734fcd1eabd2497bf37696f79511baf528e58811ca221fbdb84903046381b83c791d28a2a6d2166c84cece77d7309cfafe6e0654e26bc161e6c77fe6aedf85550ef16a0302bdf3ad0cc3f4d5ba8c42f4e2add0c6302051a8f23991609152dcdb62628cd61fdc18dde8718886375c77f27d759701eb3fe6d7399f1b21a1bced3f099f9ac7e925f4a919d16ba9b49320176a52db7b90f1378e0e0e98bc39bcb1450486b93ba43257d7723b1ef3755c6",
      "SHA-512":
        "17a6c105998e6a7bfd563bfd77818d284634bb80be7b5efb3f291ead1e7813763b942824ff9f35253306b72f554960f1b2ca9c67bc0493cd590642b3f810ed03fc03b88351917a1a7fa1d9f15d109f2a831515252550f1387c919611f1d2fde97c32c60715399ec31afebd6c999c9e04207a1012498374885bc49aafe5a33f7661708f654b8be25582274faa20554e8b62a3b8575d3951f34881a5f683d08e7b9c274706be4a203d54f1d15882a3660bef9028db2715e86583407a17d8890faca12cde3d2e81ac6f1e1b9b0f4d606ba5a34a2ed958324d49ff1d31074f21382c82fbd0dfd90a19d5cd18366fa5369f1914cc0be2c63a38896873253c2a10ae3d",
    },
    pss: {
      "SHA-256":
        "abd3ecbdf74ebfa42a18a2f8d2fb43fab698d21acc154655511e50a8c771d26845ee37192a8e107ce0d8398affc69001051b9f82fb52da4a3b587a7c3d0043b34f65aee12485a669738c99a9107c04ffc6894b688d23110689110689b8c372152304b5aa25abdaad8145c886ed6906419f45e774c2b475372206aa4b588932b05922aa51230934ea31a288162d3a835a1ea6645c5fcc3e434150b1299f1c44749ee2a930badf4ae1377528e31fa2fb0c374e7f37711491c362504961236e5103cdef9305f31f4f930d97e5817eb691f3ab5cbe40391f8a655f1b2ebea696b0d8be6eb66bfef78eed948cab5c646efc40c9479233009775f4c5654320e86cf689",
      "SHA-384":
        "7ab4bdcc3e8dca3a590bb307aaf345138dc61ebc4d3c5be90c39be15723df3997afce29ab7b389078beddb6e59f1b8da537ccfbbd093f47b87b611f8baeb88d93f5ec1dab4e8e5f5fcccf77a25e50e49d803bc4298ab898ff8433efe227b8b9564f8da54780a46f575a23da94994899edee795119a705d2bdc25f7a0b2555cf5b87d2ac2a1c65cbca7e4f27ccd1331fcc51db2456ad98335def1542be75576b83a9243e9bf4739661ec403dbeff015df90d678a84d11ccdbe36e84c4de1df6f781481686a37eca75ed743f83f8ac6c82dfe1ed2ad492cc0457295ee959e59813f4fe7fe1739fd8db2d0bd995da41dc1930b5c3cb582f5a4a81569441f7bdec76",
      "SHA-512":
        "38d13676696f450690445662373ef8f023ea185487250cd87834613f8f2156cb262150aa5f1fa59c0b9f2d4d37128bc60dfe3639cebd10ad969b31b6f62e302aaa0056a7cbca249d52685c35b6b9d3a90ad86dee6f23dd4e55be1d294fa50770bd1ff3d64acc495df3d3c03fe5d07a3427f0120568d3b86065e33b45384878fb6726d6cf3166676d9f8f9f3fbcf86f779ef38b707222fd1c7eb5e930410f8a5b501cbf76fe48692f610c57e8e3dca697d6388f629fce9a8373be1284d5406ef04d3429952d5e3b195200bb46baa44d9a2fa8260fd2fbbac48436e4fb85dc6bc0e501a76d5607d8847497d2b0db0620f6c2cab46259a4a48e1b97e259474c8dc2",
    },
  },
};
const oaep = (label) => (label === null ? { name: "RSA-OAEP" } : { name: "RSA-OAEP", label: encoder.encode(label) });
for (const [hash, label] of oaepCases) {
  const decrypting = await subtle.importKey("jwk", rsa, { name: "RSA-OAEP", hash }, false, ["decrypt"]);
  const encrypting = await subtle.importKey("jwk", rsaPublic, { name: "RSA-OAEP", hash }, false, ["encrypt"]);
  for (const [maker, outputs] of Object.entries(made)) {
    const ciphertext = bytes(outputs.oaep[hash]);
    console.log("rsa-oaep", hash, label, "made by", maker, new TextDecoder().decode(await subtle.decrypt(oaep(label), decrypting, ciphertext)),
      await outcome(subtle.decrypt(oaep(label === null ? "x" : null), decrypting, ciphertext)));
  }
  const fresh = await subtle.encrypt(oaep(label), encrypting, message);
  console.log("rsa-oaep", hash, label, "fresh", fresh.byteLength, new TextDecoder().decode(await subtle.decrypt(oaep(label), decrypting, fresh)));
}
for (const [hash, saltLength] of pssCases) {
  const signing = await subtle.importKey("jwk", rsa, { name: "RSA-PSS", hash }, false, ["sign"]);
  const verifying = await subtle.importKey("jwk", rsaPublic, { name: "RSA-PSS", hash }, false, ["verify"]);
  for (const [maker, outputs] of Object.entries(made)) {
    const signature = bytes(outputs.pss[hash]);
    console.log("rsa-pss", hash, saltLength, "made by", maker, await subtle.verify({ name: "RSA-PSS", saltLength }, verifying, signature, message),
      await subtle.verify({ name: "RSA-PSS", saltLength: saltLength + 1 }, verifying, signature, message),
      await subtle.verify({ name: "RSA-PSS", saltLength }, verifying, signature, encoder.encode("x")));
  }
  const fresh = await subtle.sign({ name: "RSA-PSS", saltLength }, signing, message);
  console.log("rsa-pss", hash, saltLength, "fresh", fresh.byteLength, await subtle.verify({ name: "RSA-PSS", saltLength }, verifying, fresh, message));
}

const pssKey = await subtle.importKey("jwk", rsa, { name: "RSA-PSS", hash: "SHA-256" }, false, ["sign"]);
const failures = {
  "Ed448 with a context": () => subtle.sign({ name: "Ed448", context: new Uint8Array(1) }, edPair.privateKey, message),
  "Ed448 raw key of 56 bytes": () => subtle.importKey("raw", new Uint8Array(56), "Ed448", true, ["verify"]),
  "X448 with a public key of small order": async () => {
    const zero = await subtle.importKey("raw", new Uint8Array(56), "X448", true, []);
    return subtle.deriveBits({ name: "X448", public: zero }, x448.alice.privateKey, null);
  },
  "X448 with an X25519 public key": async () => {
    const other = await subtle.generateKey("X25519", true, ["deriveBits"]);
    return subtle.deriveBits({ name: "X448", public: other.publicKey }, x448.alice.privateKey, null);
  },
  "X448 asking for 456 bits": () => subtle.deriveBits({ name: "X448", public: x448.bob.publicKey }, x448.alice.privateKey, 456),
  "RSA-PSS with a salt longer than the key allows": () => subtle.sign({ name: "RSA-PSS", saltLength: 223 }, pssKey, message),
};
for (const [what, attempt] of Object.entries(failures)) {
  console.log(what, await outcome(attempt()));
}
