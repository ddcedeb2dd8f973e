package io.rubinbft.orderer.tools.loadgen;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.Keepalives;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo;

/**
 * The server side of {@link TransactionFloorBenchmark}, in a process of its own so that its CPU
 * time is counted apart from the client's: {@code orderers} listeners set up exactly as a node's
 * (the orderer's own {@link GrpcListener} with server TLS from fixture orderer n's key pair), whose
 * Broadcast answers SUCCESS at once without looking at the envelope and whose Deliver streams
 * ready-made blocks. What the transport alone costs, with no validation, consensus or ledger.
 * Prints the ports, one line, and serves until its standard input closes.
 *
 * <p>Arguments: the number of listeners (1 to 4), then the size of each block's entries in bytes.
 */
public final class InstantAnswerServer {

  private static final long MAX_MESSAGE_BYTES = 100L << 20;

  private InstantAnswerServer() {}

  public static void main(String[] args) throws IOException {
    int orderers = Integer.parseInt(args[0]);
    Block block = block(Integer.parseInt(args[1]));
    List<GrpcListener> listeners = new ArrayList<>();
    for (int n = 1; n <= orderers; n++) {
      listeners.add(
          GrpcListener.start(
              ListenerSettings.of(
                  new HostPort("127.0.0.1", 0),
                  serverTls(n),
                  MAX_MESSAGE_BYTES,
                  Keepalives.FABRIC_DEFAULTS),
              List.of(new Service(block))));
    }
    System.out.println(
        listeners.stream()
            .map(listener -> String.valueOf(listener.address().getPort()))
            .collect(Collectors.joining(",")));
    System.out.flush();
    InputStream parent = System.in;
    while (parent.read() >= 0) {
      // the parent never writes: end of input means it is done (or gone)
    }
    listeners.forEach(GrpcListener::close);
  }

  /** Fixture orderer {@code n}'s TLS key pair; no client authentication, as the bench runs it. */
  static TlsSettings serverTls(int n) {
    return FabricFixtures.ordererServerTls(n);
  }

  /** A block of {@link TransactionFloorBenchmark#BLOCK_TRANSACTIONS} random entries. */
  private static Block block(int entryBytes) {
    Random random = new Random(1);
    BlockData.Builder data = BlockData.newBuilder();
    for (int i = 0; i < TransactionFloorBenchmark.BLOCK_TRANSACTIONS; i++) {
      byte[] entry = new byte[entryBytes];
      random.nextBytes(entry);
      data.addData(ByteString.copyFrom(entry));
    }
    return Block.newBuilder().setHeader(BlockHeader.newBuilder()).setData(data).build();
  }

  private static final class Service extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {

    private static final BroadcastResponse SUCCESS =
        BroadcastResponse.newBuilder().setStatus(Status.SUCCESS).build();

    private final Block block;

    Service(Block block) {
      this.block = block;
    }

    @Override
    public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> answers) {
      return new StreamObserver<>() {
        @Override
        public void onNext(Envelope envelope) {
          answers.onNext(SUCCESS);
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          answers.onCompleted();
        }
      };
    }

    @Override
    public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responses) {
      // gRPC takes the on-ready handler only before this method returns
      BlockSender sender =
          new BlockSender((ServerCallStreamObserver<DeliverResponse>) responses, block);
      return new StreamObserver<>() {
        @Override
        public void onNext(Envelope seek) {
          sender.start(lastBlock(seek));
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {}
      };
    }

    private static long lastBlock(Envelope seek) {
      try {
        return SeekInfo.parseFrom(Payload.parseFrom(seek.getPayload()).getData())
            .getStop()
            .getSpecified()
            .getNumber();
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalArgumentException("not a seek envelope", e);
      }
    }
  }

  /**
   * Sends blocks 0 to {@code last} as fast as the client takes them: only while gRPC says the call
   * is ready, so no more than its flow-control window is buffered.
   */
  private static final class BlockSender implements Runnable {

    private final ServerCallStreamObserver<DeliverResponse> call;
    private final DeliverResponse response;
    private long last = -1;
    private long next;
    private boolean done;

    BlockSender(ServerCallStreamObserver<DeliverResponse> call, Block block) {
      this.call = call;
      this.response = DeliverResponse.newBuilder().setBlock(block).build();
      call.setOnReadyHandler(this);
    }

    synchronized void start(long lastBlock) {
      last = lastBlock;
      run();
    }

    @Override
    public synchronized void run() {
      while (!done && last >= 0 && call.isReady()) {
        if (next > last) {
          done = true;
          call.onNext(DeliverResponse.newBuilder().setStatus(Status.SUCCESS).build());
          call.onCompleted();
        } else {
          call.onNext(response);
          next++;
        }
      }
    }
  }
}
