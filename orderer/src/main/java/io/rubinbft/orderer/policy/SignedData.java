package io.rubinbft.orderer.policy;

import com.google.protobuf.ByteString;

/**
 * One signature to evaluate against a policy, as Fabric's {@code protoutil.SignedData}: the signed
 * bytes, the signer's marshalled {@code SerializedIdentity}, and the DER ECDSA signature.
 */
public record SignedData(ByteString data, ByteString identity, ByteString signature) {}
