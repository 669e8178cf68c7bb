// META: title=WebCryptoAPI: sign() and verify() Using RSA-PSS
// META: script=rsa_pss_vectors.js
// META: script=rsa.js
// META: timeout=long

run_test();
