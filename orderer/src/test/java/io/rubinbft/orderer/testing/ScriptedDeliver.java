package io.rubinbft.orderer.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.block.SignedBlocks;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.MetadataSignature;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekPosition;

/**
 * A Deliver service over real TLS that serves a given chain and may lie from one block on, as a
 * Byzantine orderer would: a flipped signature byte, a wrong previous hash, an answer that ends
 * early, or silence. Asked for its newest block (a height probe) it answers the chain's last block,
 * or, told to {@link #claim} a height, a copy of it numbered as that height's last block. It does
 * not check requests.
 */
public final class ScriptedDeliver implements AutoCloseable {

  /** How the server lies, from block {@code at} on. */
  public enum Lie {
    /** Serves the chain as it is. */
    NONE,
    /** Block {@code at} has one byte of its first signature flipped. */
    FLIP_SIGNATURE,
    /** Block {@code at}'s header names a wrong previous hash. */
    WRONG_PREVIOUS_HASH,
    /** The answer ends with SUCCESS before block {@code at}. */
    TRUNCATE,
    /** Nothing more is sent from block {@code at} on; the stream stays open. */
    HANG
  }

  private final GrpcListener listener;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger probes = new AtomicInteger();
  private volatile Lie lie;
  private volatile long at;
  private volatile long claimedHeight;

  private ScriptedDeliver(GrpcListener listener) {
    this.listener = listener;
  }

  /**
   * Serves {@code chain} (read at each request) on {@code address} with {@code tls}, honestly until
   * told to {@link #lie}.
   */
  public static ScriptedDeliver start(
      HostPort address, TlsSettings tls, Supplier<List<Block>> chain) throws IOException {
    ScriptedDeliver[] server = new ScriptedDeliver[1];
    AtomicBroadcastGrpc.AtomicBroadcastImplBase service =
        new AtomicBroadcastGrpc.AtomicBroadcastImplBase() {
          @Override
          public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responses) {
            return new Requests(server[0], responses, chain);
          }
        };
    server[0] =
        new ScriptedDeliver(
            GrpcListener.start(
                ListenerSettings.of(address, tls, 100 << 20, Keepalives.FABRIC_DEFAULTS),
                List.of(service)));
    server[0].lie(Lie.NONE, 0);
    return server[0];
  }

  /** From the next request on, lies {@code lie} from block {@code at} on. */
  public void lie(Lie lie, long at) {
    this.at = at;
    this.lie = lie;
  }

  /** From the next probe on, claims height {@code height} (0: the chain's own). */
  public void claim(long height) {
    this.claimedHeight = height;
  }

  public InetSocketAddress address() {
    return listener.address();
  }

  /** How many requests for blocks (seeks from a given number) came. */
  public int requests() {
    return requests.get();
  }

  /** How many requests for the newest block (height probes) came. */
  public int probes() {
    return probes.get();
  }

  @Override
  public void close() {
    listener.close();
  }

  /** {@code block} with one byte of its first consenter signature flipped. */
  public static Block flipFirstSignature(Block block) {
    try {
      List<MetadataSignature> all =
          new ArrayList<>(SignedBlocks.signatures(block.getMetadata()).getSignaturesList());
      byte[] bytes = all.getFirst().getSignature().toByteArray();
      bytes[bytes.length / 2] ^= 0x01;
      all.set(0, all.getFirst().toBuilder().setSignature(ByteString.copyFrom(bytes)).build());
      return SignedBlocks.withSignatures(block, all);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code block} whose header names 32 zero bytes as the previous block's hash. */
  public static Block withZeroPreviousHash(Block block) {
    return block.toBuilder()
        .setHeader(block.getHeader().toBuilder().setPreviousHash(ByteString.copyFrom(new byte[32])))
        .build();
  }

  private static final class Requests implements StreamObserver<Envelope> {
    private final ScriptedDeliver server;
    private final StreamObserver<DeliverResponse> responses;
    private final Supplier<List<Block>> chain;

    Requests(
        ScriptedDeliver server,
        StreamObserver<DeliverResponse> responses,
        Supplier<List<Block>> chain) {
      this.server = server;
      this.responses = responses;
      this.chain = chain;
    }

    @Override
    public void onNext(Envelope request) {
      SeekInfo seek = seek(request);
      List<Block> blocks = chain.get();
      if (seek.getStart().hasNewest()) {
        server.probes.incrementAndGet();
        answerProbe(blocks.getLast());
        return;
      }
      server.requests.incrementAndGet();
      Lie lie = server.lie;
      long at = server.at;
      long last = blocks.size() - 1L;
      long start = number(seek.getStart(), last);
      boolean beyond = Long.compareUnsigned(number(seek.getStop(), last), last) > 0;
      long stop = beyond ? last : number(seek.getStop(), last);
      for (long n = start; n <= stop; n++) {
        if (n >= at && (lie == Lie.HANG || lie == Lie.TRUNCATE)) {
          if (lie == Lie.TRUNCATE) {
            finish(Status.SUCCESS);
          }
          return;
        }
        Block block = blocks.get((int) n);
        Block served = n == at ? lied(lie, block) : block;
        responses.onNext(DeliverResponse.newBuilder().setBlock(served).build());
      }
      if (!beyond) {
        finish(Status.SUCCESS);
      } else if (seek.getBehavior() == SeekInfo.SeekBehavior.FAIL_IF_NOT_READY) {
        finish(Status.NOT_FOUND); // as Fabric: what it has, then NOT_FOUND at the first missing
      }
    }

    private void answerProbe(Block newest) {
      long claimed = server.claimedHeight;
      Block told =
          claimed == 0
              ? newest
              : newest.toBuilder()
                  .setHeader(newest.getHeader().toBuilder().setNumber(claimed - 1))
                  .build();
      responses.onNext(DeliverResponse.newBuilder().setBlock(told).build());
      finish(Status.SUCCESS);
    }

    private void finish(Status status) {
      responses.onNext(DeliverResponse.newBuilder().setStatus(status).build());
      responses.onCompleted();
    }

    private static Block lied(Lie lie, Block block) {
      return switch (lie) {
        case FLIP_SIGNATURE -> flipFirstSignature(block);
        case WRONG_PREVIOUS_HASH -> withZeroPreviousHash(block);
        case NONE, TRUNCATE, HANG -> block;
      };
    }

    private static SeekInfo seek(Envelope request) {
      try {
        return SeekInfo.parseFrom(Payload.parseFrom(request.getPayload()).getData());
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
    }

    /** A position's block number; "newest" (and beyond the chain: its last block) for others. */
    private static long number(SeekPosition position, long last) {
      return switch (position.getTypeCase()) {
        case SPECIFIED -> position.getSpecified().getNumber();
        case OLDEST -> 0;
        default -> last;
      };
    }

    @Override
    public void onError(Throwable t) {
      // the client went away
    }

    @Override
    public void onCompleted() {
      // one request per stream is all this server answers
    }
  }
}
