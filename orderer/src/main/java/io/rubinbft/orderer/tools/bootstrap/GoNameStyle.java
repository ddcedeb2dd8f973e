package io.rubinbft.orderer.tools.bootstrap;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERPrintableString;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.style.BCStyle;

/**
 * Encodes name attributes as Go's {@code encoding/asn1} does: PrintableString when every character
 * allows it, UTF8String otherwise (e.g. for the '@' of {@code Admin@example.com}), so that our
 * subjects are byte-identical to cryptogen's.
 */
final class GoNameStyle extends BCStyle {

  static final GoNameStyle INSTANCE = new GoNameStyle();

  private GoNameStyle() {}

  @Override
  protected ASN1Encodable encodeStringValue(ASN1ObjectIdentifier oid, String value) {
    return DERPrintableString.isPrintableString(value)
        ? new DERPrintableString(value)
        : new DERUTF8String(value);
  }
}
