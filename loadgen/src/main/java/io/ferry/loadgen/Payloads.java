package io.ferry.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a run's {@link Content} into the payloads each producer cycles through. Payloads are made
 * once before the run, never per message: random content gets a few variants per producer, files
 * are read once and shared.
 */
final class Payloads {

    /** Enough variety that consecutive messages differ, few enough to cost nothing to build. */
    static final int RANDOM_VARIANTS = 4;

    private static final char[] TEXT_ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final Content content;
    private final PayloadKind kind;
    private final List<Payload> shared;
    private final SplittableRandom random = new SplittableRandom();

    private Payloads(Content content, PayloadKind kind, List<Payload> shared) {
        this.content = content;
        this.kind = kind;
        this.shared = shared;
    }

    /** Reads files now, so an unreadable one is a bad setting before anything is sent. */
    static Payloads prepare(Content content, PayloadKind kind) {
        List<Payload> shared = List.of();
        if (content instanceof Content.FixedText fixed) {
            shared = List.of(kind == PayloadKind.TEXT ? Payload.ofText(fixed.text())
                    : Payload.ofBytes(fixed.text().getBytes(StandardCharsets.UTF_8)));
        } else if (content instanceof Content.FilesFrom files) {
            shared = files.files().map(file -> read(file, kind)).toList();
            if (shared.isEmpty()) {
                throw new IllegalArgumentException("--files: no regular files in " + files.folder());
            }
        }
        return new Payloads(content, kind, shared);
    }

    /** The payloads producer {@code index} sends in turn; producers start on different files. */
    List<Payload> forProducer(int index) {
        if (content instanceof Content.RandomBytes randomBytes) {
            List<Payload> variants = new ArrayList<>(RANDOM_VARIANTS);
            for (int i = 0; i < RANDOM_VARIANTS; i++) {
                variants.add(randomPayload(randomBytes.size()));
            }
            return variants;
        }
        List<Payload> rotated = new ArrayList<>(shared);
        Collections.rotate(rotated, -(index % shared.size()));
        return rotated;
    }

    private Payload randomPayload(int size) {
        if (kind == PayloadKind.BYTES) {
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            return Payload.ofBytes(bytes);
        }
        char[] chars = new char[size];
        for (int i = 0; i < size; i++) {
            chars[i] = TEXT_ALPHABET[random.nextInt(TEXT_ALPHABET.length)];
        }
        return Payload.ofText(new String(chars));
    }

    private static Payload read(Path file, PayloadKind kind) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--files: cannot read " + file + ": " + e.getMessage());
        }
        // As text, the sink sees the re-encoded string, so that is what gets the checksum.
        return kind == PayloadKind.TEXT ? Payload.ofText(new String(bytes, StandardCharsets.UTF_8)) : Payload.ofBytes(bytes);
    }
}
