"""Drives the real Valkey GLIDE Python client for the cross-client tests of zstd-java.

usage: glide_matrix.py MODE PORT BACKEND IN_FILE OUT_FILE
  MODE     write: SET every entry of IN_FILE
           read:  GET every key of IN_FILE, one command each; OUT_FILE gets per key the value, nil, or the error
  BACKEND  zstd | lz4 | none (no compression configured)
IN_FILE:  repeated [u32 big-endian key length][key][i32 big-endian value length, -1 = none][value]
OUT_FILE: repeated [u32 key length][key][i32 length, -1 = nil][value], or for an error [i32 -2][u32 length][text]
"""
import asyncio
import struct
import sys

from glide import (CompressionBackend, CompressionConfiguration, GlideClient,
                   GlideClientConfiguration, NodeAddress)


def read_entries(path):
    entries = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        (klen,) = struct.unpack_from(">I", data, pos)
        pos += 4
        key = data[pos:pos + klen]
        pos += klen
        (vlen,) = struct.unpack_from(">i", data, pos)
        pos += 4
        value = None
        if vlen >= 0:
            value = data[pos:pos + vlen]
            pos += vlen
        entries.append((key, value))
    return entries


async def main(mode, port, backend, in_file, out_file):
    compression = None
    if backend != "none":
        compression = CompressionConfiguration(enabled=True, backend=CompressionBackend[backend.upper()])
    config = GlideClientConfiguration([NodeAddress("127.0.0.1", int(port))], compression=compression,
                                      request_timeout=10000)
    client = await GlideClient.create(config)
    try:
        entries = read_entries(in_file)
        if mode == "write":
            for key, value in entries:
                await client.set(key, value)
        elif mode == "read":
            with open(out_file, "wb") as f:
                for key, _ in entries:
                    f.write(struct.pack(">I", len(key)))
                    f.write(key)
                    try:
                        value = await client.get(key)
                    except Exception as e:  # recorded per key: the test decides what is expected
                        text = (type(e).__name__ + ": " + str(e)).encode("utf-8")
                        f.write(struct.pack(">i", -2))
                        f.write(struct.pack(">I", len(text)))
                        f.write(text)
                        continue
                    if value is None:
                        f.write(struct.pack(">i", -1))
                    else:
                        f.write(struct.pack(">i", len(value)))
                        f.write(value)
        else:
            raise SystemExit("unknown mode " + mode)
    finally:
        await client.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
