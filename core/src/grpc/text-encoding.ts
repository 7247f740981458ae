import { configureTextEncoding, getTextEncoding } from '@bufbuild/protobuf/wire';

/**
 * Strings are encoded with Buffer.from (same bytes as TextEncoder, lone surrogates included): small
 * strings land in Node's shared buffer pool instead of one new ArrayBuffer each, which made encoding
 * a response about 40 % cheaper and its garbage far lighter (docs/engineering-tests.md, REST: Benchmark). Decoding keeps
 * TextDecoder, the faster of the two. The setting is protobuf-es's own process-wide hook; the core
 * sets it when its server module loads (the service definition itself is @retail/contract's).
 */
const textEncoding = getTextEncoding();
configureTextEncoding({ ...textEncoding, encodeUtf8: (text: string) => Buffer.from(text, 'utf8') });
