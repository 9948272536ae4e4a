package dev.kubeloop.webhook;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The few DER encodings an X.509 certificate needs (X.690), so that {@link ThrowawayCertificates}
 * can make one with the JDK alone: the JDK verifies and parses certificates but has no public API
 * to build them, and the library should not carry BouncyCastle for a development switch. Stateless.
 */
final class Der {

    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private Der() {
    }

    static byte[] sequence(byte[]... elements) {
        return tlv(0x30, concat(elements));
    }

    static byte[] set(byte[]... elements) {
        return tlv(0x31, concat(elements));
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return tlv(0x01, new byte[] {(byte) (value ? 0xff : 0x00)});
    }

    static byte[] octetString(byte[] value) {
        return tlv(0x04, value);
    }

    /** A BIT STRING of whole bytes (no unused bits). */
    static byte[] bitString(byte[] value) {
        return tlv(0x03, concat(new byte[] {0}, value));
    }

    /** A BIT STRING of named bits (KeyUsage): bit 0 is the most significant bit of the first byte. */
    static byte[] namedBits(int... bits) {
        int highest = 0;
        for (int bit : bits) {
            highest = Math.max(highest, bit);
        }
        byte[] bytes = new byte[highest / 8 + 1];
        for (int bit : bits) {
            bytes[bit / 8] |= (byte) (0x80 >>> (bit % 8));
        }
        int unused = 7 - highest % 8;
        return tlv(0x03, concat(new byte[] {(byte) unused}, bytes));
    }

    static byte[] utf8String(String value) {
        return tlv(0x0c, value.getBytes(StandardCharsets.UTF_8));
    }

    /** GeneralizedTime, valid for every date (RFC 5280 asks UTCTime before 2050; the JDK and Go read both). */
    static byte[] time(ZonedDateTime time) {
        return tlv(0x18, GENERALIZED_TIME.format(time.withZoneSameInstant(ZoneOffset.UTC))
                .getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] oid(String dotted) {
        String[] parts = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(parts[0]) * 40 + Integer.parseInt(parts[1]));
        for (int i = 2; i < parts.length; i++) {
            long arc = Long.parseLong(parts[i]);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
            for (int group = groups - 1; group >= 0; group--) {
                int sevenBits = (int) ((arc >>> (7 * group)) & 0x7f);
                out.write(group == 0 ? sevenBits : sevenBits | 0x80);
            }
        }
        return tlv(0x06, out.toByteArray());
    }

    /** An EXPLICIT context-specific tag ([n] around a whole encoding). */
    static byte[] explicit(int tag, byte[] content) {
        return tlv(0xa0 | tag, content);
    }

    /** An IMPLICIT context-specific primitive tag ([n] in place of the type's own, as GeneralName uses). */
    static byte[] implicit(int tag, byte[] value) {
        return tlv(0x80 | tag, value);
    }

    static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
