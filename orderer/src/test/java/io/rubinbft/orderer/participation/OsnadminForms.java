package io.rubinbft.orderer.participation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Request bodies as osnadmin sends them to the channel participation API. */
final class OsnadminForms {

  static final String BOUNDARY = "a7b3c1d9e5f0";
  static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;

  private OsnadminForms() {}

  /** A form as Go's mime/multipart writes it for osnadmin's CreateFormFile. */
  static byte[] form(String part, byte[] content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(
        ("--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\""
                + part
                + "\"; filename=\"blockfile\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(content);
    out.write(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }
}
