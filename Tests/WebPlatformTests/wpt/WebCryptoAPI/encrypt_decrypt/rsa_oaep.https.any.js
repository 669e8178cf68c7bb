// META: title=WebCryptoAPI: encrypt() Using RSA-OAEP
// META: script=rsa_vectors.js
// META: script=rsa.js
// META: timeout=long

run_test();
