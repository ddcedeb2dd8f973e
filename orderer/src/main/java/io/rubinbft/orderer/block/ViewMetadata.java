package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * SmartBFT's {@code ViewMetadata}, the {@code consenter_metadata} Fabric's BFT orderer writes into
 * every block's {@code OrdererBlockMetadata}. Its proto ({@code smartbftprotos}) is not part of
 * fabric-protos, so the five fields are encoded here with protobuf's own coded streams, in field
 * order and with zero values omitted, which is what Go's proto.Marshal writes: block 2 of the
 * fixtures carries {@code 10021801} = {latest_sequence 2, decisions_in_view 1}.
 *
 * @param viewId field 1
 * @param latestSequence field 2: the block number in Fabric's BFT
 * @param decisionsInView field 3
 * @param blackList field 4, packed
 * @param prevCommitSignatureDigest field 5
 */
public record ViewMetadata(
    long viewId,
    long latestSequence,
    long decisionsInView,
    List<Long> blackList,
    ByteString prevCommitSignatureDigest) {

  private static final int VIEW_ID = 1;
  private static final int LATEST_SEQUENCE = 2;
  private static final int DECISIONS_IN_VIEW = 3;
  private static final int BLACK_LIST = 4;
  private static final int DIGEST = 5;

  public ViewMetadata {
    blackList = List.copyOf(blackList);
  }

  /**
   * Metadata with an empty black list and no previous-commit digest, what Fabric's blocks carry
   * while no replica is black-listed: in the fixtures view 0, sequence = block number, decisions in
   * view = block number - 1.
   */
  public static ViewMetadata ofSequence(long viewId, long sequence, long decisionsInView) {
    return new ViewMetadata(viewId, sequence, decisionsInView, List.of(), ByteString.EMPTY);
  }

  public ByteString toByteString() {
    ByteString.Output out = ByteString.newOutput();
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    try {
      writeNonZero(coded, VIEW_ID, viewId);
      writeNonZero(coded, LATEST_SEQUENCE, latestSequence);
      writeNonZero(coded, DECISIONS_IN_VIEW, decisionsInView);
      if (!blackList.isEmpty()) {
        int size = 0;
        for (long id : blackList) {
          size += CodedOutputStream.computeUInt64SizeNoTag(id);
        }
        coded.writeTag(BLACK_LIST, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        coded.writeUInt32NoTag(size);
        for (long id : blackList) {
          coded.writeUInt64NoTag(id);
        }
      }
      if (!prevCommitSignatureDigest.isEmpty()) {
        coded.writeBytes(DIGEST, prevCommitSignatureDigest);
      }
      coded.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return out.toByteString();
  }

  private static void writeNonZero(CodedOutputStream coded, int field, long value)
      throws IOException {
    if (value != 0) {
      coded.writeUInt64(field, value);
    }
  }

  /** Decodes {@code bytes}, accepting unpacked black lists and skipping unknown fields. */
  public static ViewMetadata parse(ByteString bytes) throws InvalidProtocolBufferException {
    CodedInputStream in = bytes.newCodedInput();
    long[] numbers = new long[4];
    List<Long> blackList = new ArrayList<>();
    ByteString digest = ByteString.EMPTY;
    try {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        int field = WireFormat.getTagFieldNumber(tag);
        int wireType = WireFormat.getTagWireType(tag);
        if (field >= VIEW_ID && field <= DECISIONS_IN_VIEW && wireType == 0) {
          numbers[field] = in.readUInt64();
        } else if (field == BLACK_LIST && wireType == 0) {
          blackList.add(in.readUInt64());
        } else if (field == BLACK_LIST && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          int limit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            blackList.add(in.readUInt64());
          }
          in.popLimit(limit);
        } else if (field == DIGEST && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          digest = in.readBytes();
        } else if (!in.skipField(tag)) {
          break;
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      throw new InvalidProtocolBufferException(e);
    }
    return new ViewMetadata(numbers[1], numbers[2], numbers[3], blackList, digest);
  }
}
