package dev.zstdjava.values.redisson;

import org.redisson.client.codec.BaseCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.Decoder;
import org.redisson.client.protocol.Encoder;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Redisson's {@code StringCodec} under a class of its own (Redisson never copies its own {@code StringCodec}), counting
 * the copies Redisson makes of it for a class loader ({@link BaseCodec#copy}, through the constructor it looks up).
 * Public, with a public copy constructor: Redisson makes the copy reflectively.
 */
public class CopyCountingCodec extends BaseCodec {
    /** copies made so far, by every instance */
    static final AtomicInteger COPIES = new AtomicInteger();

    public CopyCountingCodec() {
    }

    /** the copy Redisson makes for {@code classLoader} */
    public CopyCountingCodec(ClassLoader classLoader, CopyCountingCodec codec) {
        COPIES.incrementAndGet();
    }

    @Override
    public Decoder<Object> getValueDecoder() {
        return StringCodec.INSTANCE.getValueDecoder();
    }

    @Override
    public Encoder getValueEncoder() {
        return StringCodec.INSTANCE.getValueEncoder();
    }
}
