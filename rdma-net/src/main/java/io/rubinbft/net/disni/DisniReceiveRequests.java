package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.SVCPostRecv;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequestList;
import java.io.IOException;
import java.util.LinkedList;
import java.util.List;

/**
 * A queue pair's receive work requests. DiSNI's stateful receive call cannot change a request's
 * buffer, so each receive buffer gets its own call, built the first time it is posted and kept by
 * its work request id (ids are below the receive depth, as the verbs provider's slot indexes are).
 * Each receive is posted by its own call: DiSNI cannot chain receives built apart.
 */
final class DisniReceiveRequests extends WorkRequestList<DisniRegisteredMemory> {

  private final IbvQP queuePair;
  private final SVCPostRecv[] calls;
  private final long[] callAddresses;
  private final int[] callLengths;
  private final int[] callKeys;

  DisniReceiveRequests(IbvQP queuePair, int depth) {
    super(depth, Integer.MAX_VALUE);
    this.queuePair = queuePair;
    this.calls = new SVCPostRecv[depth];
    this.callAddresses = new long[depth];
    this.callLengths = new int[depth];
    this.callKeys = new int[depth];
  }

  @Override
  protected DisniRegisteredMemory registered(RegisteredMemory memory) {
    return DisniRegisteredMemory.of(memory);
  }

  /** Posts the first {@code count} requests, one call each. */
  void post(int count) throws VerbsException {
    try {
      for (int i = 0; i < count; i++) {
        call(i).execute();
      }
    } catch (IOException e) {
      throw new VerbsException("ibv_post_recv through DiSNI failed", e);
    }
  }

  /** The call for entry {@code index}'s buffer; rebuilt only when its id names another buffer. */
  private SVCPostRecv call(int index) throws IOException {
    long workRequestId = workRequestId(index);
    if (workRequestId < 0 || workRequestId >= calls.length) {
      throw new IllegalArgumentException(
          "receive id "
              + workRequestId
              + " is outside 0.."
              + (calls.length - 1)
              + ": the DiSNI binding keeps one call per receive buffer, by id");
    }
    int id = (int) workRequestId;
    long address = memory(index).address(offset(index));
    int length = length(index);
    int key = memory(index).localKey();
    if (calls[id] != null
        && callAddresses[id] == address
        && callLengths[id] == length
        && callKeys[id] == key) {
      return calls[id];
    }
    if (calls[id] != null) {
      calls[id].free();
    }
    IbvSge sge = new IbvSge();
    sge.setAddr(address);
    sge.setLength(length);
    sge.setLkey(key);
    @SuppressWarnings("JdkObsolete") // DiSNI's setSg_list takes a LinkedList
    LinkedList<IbvSge> sges = new LinkedList<>();
    sges.add(sge);
    IbvRecvWR request = new IbvRecvWR();
    request.setWr_id(id);
    request.setSg_list(sges);
    request.setNum_sge(1);
    calls[id] = queuePair.postRecv(List.of(request), null);
    callAddresses[id] = address;
    callLengths[id] = length;
    callKeys[id] = key;
    return calls[id];
  }

  void free() {
    for (SVCPostRecv call : calls) {
      if (call != null) {
        call.free();
      }
    }
  }
}
