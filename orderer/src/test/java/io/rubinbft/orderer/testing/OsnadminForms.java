package io.rubinbft.orderer.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Request bodies as osnadmin sends them to the channel participation API: the one multipart writer
 * of the tests (the handler's own tests and the admin client of the node tests).
 */
public final class OsnadminForms {

  public static final String BOUNDARY = "a7b3c1d9e5f0";
  public static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;

  private OsnadminForms() {}

  /** A form as Go's mime/multipart writes it for osnadmin's CreateFormFile. */
  public static byte[] form(String part, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(
        ("--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\""
                + part
                + "\"; filename=\"blockfile\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(content);
    out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }
}
