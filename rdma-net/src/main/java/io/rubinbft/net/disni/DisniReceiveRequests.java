package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.SVCPostRecv;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequests;
import java.io.IOException;
import java.util.LinkedList;
import java.util.List;

/**
 * A queue pair's receive work requests. DiSNI's stateful receive call cannot change a request's
 * buffer, so each receive buffer gets its own call, built the first time it is posted and kept by
 * its work request id (ids are below the receive depth, as the verbs provider's slot indexes are).
 * Each receive is posted by its own call: DiSNI cannot chain receives built apart.
 */
final class DisniReceiveRequests implements WorkRequests {

  private final IbvQP queuePair;
  private final long[] ids;
  private final long[] addresses;
  private final int[] lengths;
  private final int[] keys;
  private final SVCPostRecv[] calls;
  private final long[] callAddresses;
  private final int[] callLengths;
  private final int[] callKeys;

  DisniReceiveRequests(IbvQP queuePair, int depth) {
    this.queuePair = queuePair;
    this.ids = new long[depth];
    this.addresses = new long[depth];
    this.lengths = new int[depth];
    this.keys = new int[depth];
    this.calls = new SVCPostRecv[depth];
    this.callAddresses = new long[depth];
    this.callLengths = new int[depth];
    this.callKeys = new int[depth];
  }

  @Override
  public int capacity() {
    return ids.length;
  }

  @Override
  public void set(
      int index,
      long workRequestId,
      RegisteredMemory memory,
      long offset,
      int length,
      boolean signaled,
      boolean inline) {
    if (workRequestId < 0 || workRequestId >= calls.length) {
      throw new IllegalArgumentException(
          "receive id "
              + workRequestId
              + " is outside 0.."
              + (calls.length - 1)
              + ": the DiSNI binding keeps one call per receive buffer, by id");
    }
    DisniRegisteredMemory region = DisniQueuePair.region(memory, offset, length);
    ids[index] = workRequestId;
    addresses[index] = region.address(offset);
    lengths[index] = length;
    keys[index] = region.localKey();
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
    int id = (int) ids[index];
    if (calls[id] != null
        && callAddresses[id] == addresses[index]
        && callLengths[id] == lengths[index]
        && callKeys[id] == keys[index]) {
      return calls[id];
    }
    if (calls[id] != null) {
      calls[id].free();
    }
    IbvSge sge = new IbvSge();
    sge.setAddr(addresses[index]);
    sge.setLength(lengths[index]);
    sge.setLkey(keys[index]);
    LinkedList<IbvSge> sges = new LinkedList<>();
    sges.add(sge);
    IbvRecvWR request = new IbvRecvWR();
    request.setWr_id(id);
    request.setSg_list(sges);
    request.setNum_sge(1);
    calls[id] = queuePair.postRecv(List.of(request), null);
    callAddresses[id] = addresses[index];
    callLengths[id] = lengths[index];
    callKeys[id] = keys[index];
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
