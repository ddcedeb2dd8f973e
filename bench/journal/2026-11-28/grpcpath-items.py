import sys
# usage: items.py TX files... ; per-stream / per-envelope items, samples (2 ms) and us per transaction (4 nodes)
tx=int(sys.argv[1]); files=sys.argv[2:]
lines=[]
for f in files:
  for l in open(f):
    st,n=l.rsplit(' ',1); lines.append((st,int(n)))
def startup(st):
  fr0=st.split(';')[0]
  return fr0.startswith('io/rubinbft/orderer/cli/Main.main') or 'ChannelLifecycle' in st or 'org/eclipse/jetty' in st or fr0.startswith('java/lang/ClassLoader.loadClass') or 'LauncherHelper' in st or 'ParticipationHandler' in st
base=sum(n for st,n in lines if not startup(st))
def cnt(pred): return sum(n for st,n in lines if not startup(st) and pred(st))
H=lambda st: 'SerializingExecutor.run' in st
EL=lambda st: 'FastThreadLocalRunnable' in st
VT=lambda st: not H(st) and not EL(st) and 'ReplicaHost.run' not in st and 'CompileBroker' not in st and ('ForkJoinWorkerThread' in st or 'VirtualThread' in st or 'Continuation' in st)
items=[
 ('all but start-up', lambda st: True),
 ('PER STREAM: event loops, all', EL),
 ('  event loops: starting virtual threads (ThreadPerTaskExecutor)', lambda st: EL(st) and 'ThreadPerTaskExecutor' in st),
 ('  event loops: HTTP/2 headers in (onHeadersRead, streamCreated)', lambda st: EL(st) and 'onHeadersRead' in st),
 ('  event loops: TLS unwrap (records in)', lambda st: EL(st) and 'SslHandler.unwrap' in st),
 ('  event loops: write queue flush (answers out: HTTP/2, TLS wrap, socket)', lambda st: EL(st) and 'WriteQueue.flush' in st),
 ('virtual-thread scheduling (mount, park, carriers)', VT),
 ('handler: call start (interceptors, method lookup)', lambda st: H(st) and ('HandleServerCall' in st or 'MethodLookup' in st)),
 ('handler: call closed', lambda st: H(st) and 'Closed.runInContext' in st),
 ('handler: sending the answer (sendHeaders/sendMessage/close)', lambda st: H(st) and ('ServerCallImpl.sendMessage' in st or 'ServerCallImpl.sendHeaders' in st or 'ServerCallImpl.close' in st or 'ServerCallImpl.closeInternal' in st)),
 ('interceptor: gRPC server metrics (own work)', lambda st: 'GrpcServerMetrics' in st and any(k in st.split('GrpcServerMetrics')[-1] for k in ['prometheus','labelValues','CounterDataPoint','Histogram','AtomicBoolean','getBareMethodName','String.replace'])),
 ('interceptor: inbound budget: largest AbsoluteMaxBytes lookup', lambda st: 'largestAbsoluteMaxBytes' in st),
 ('grpc Context attach/detach/cancel', lambda st: H(st) and 'CancellableContext' in st),
 ('PER ENVELOPE: request parse (EnvelopeRequests)', lambda st: 'EnvelopeRequests.parse' in st),
 ('creator signature check, all (EcdsaVerifier, Broadcast)', lambda st: H(st) and 'EcdsaVerifier.verify' in st),
 ('  ACCP verify', lambda st: H(st) and 'EcdsaVerifier.verify' in st and 'engineVerify' in st),
 ('  DER decode of the signature (BouncyCastle)', lambda st: H(st) and 'EcdsaSignature.fromDer' in st),
 ('  feeding the payload (SHA-256 input)', lambda st: H(st) and 'EcdsaVerifier' in st and 'InPlaceBytes.feed' in st),
 ('other validation (parse, policy, MSP)', lambda st: H(st) and 'BroadcastValidator' in st and 'EcdsaVerifier.verify' not in st),
 ('submit: SHA-256 for VerifiedEnvelopes', lambda st: H(st) and 'VerifiedEnvelopes.add' in st),
 ('submit: tx-id lookup', lambda st: H(st) and 'OrderedTransactions.find' in st),
 ('submit: re-serialising the envelope (toByteArray)', lambda st: H(st) and 'ChannelRuntime.submit' in st and 'AbstractMessageLite.toByteArray' in st),
 ('submit: hand-off to the replica host incl. wait', lambda st: H(st) and 'ChannelRuntime.offer' in st),
 ('backups: proposal checks (incl. tx-id lookups)', lambda st: 'ReplicaHost.run' in st and ('ProposedBlockVerifier' in st or 'FabricProposals.invalidReason' in st or 'orderedAlready' in st)),
 ('backups: envelope signatures re-verified', lambda st: 'ReplicaHost.run' in st and 'BroadcastValidator' in st),
 ('JIT compiler threads', lambda st: 'CompileBroker' in st),
]
print(f"{base} samples of 2 ms excl. start-up, {tx} transactions: {base*2000/tx:.0f} us per transaction")
for name,p in items:
  n=cnt(p); print(f"{n:6d} {100*n/base:5.1f}% {n*2000/tx:7.0f} us/tx  {name}")
