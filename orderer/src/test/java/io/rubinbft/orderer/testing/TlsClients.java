package io.rubinbft.orderer.testing;

import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.tls.ServerTls;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** HTTPS clients with a trusted CA and, for mutual TLS, a client certificate and key. */
public final class TlsClients {

  private TlsClients() {}

  /** An HTTP client trusting {@code ca}, presenting {@code certificate} when it is not null. */
  public static HttpClient https(Path ca, Path certificate, Path key)
      throws GeneralSecurityException, IOException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    if (certificate != null) {
      store.setKeyEntry(
          "client",
          Pem.privateKey(key),
          new char[0],
          Pem.certificates(certificate).toArray(new X509Certificate[0]));
    }
    keys.init(store, new char[0]);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), ServerTls.trustManagers(List.of(ca)), null);
    return HttpClient.newBuilder().sslContext(context).build();
  }
}
