/**
 * The size of a protobuf varint, for the byte counts etcd works from (a request's raft entry
 * against its size limits, a stored mvccpb.KeyValue in the backend): seven bits a byte; a negative
 * int64 takes ten.
 */
export function varintSize(n: number): number {
  if (n < 0) return 10;
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}
