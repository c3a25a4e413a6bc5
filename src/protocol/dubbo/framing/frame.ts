/** Byte layout of a Dubbo 2 frame header, as Java's `ExchangeCodec` writes it. */
export const HEADER_LENGTH = 16;
export const MAGIC = 0xdabb;
export const MAGIC_HIGH = 0xda;
export const MAGIC_LOW = 0xbb;
/** Offset of the flag byte (request / two-way / event bits and the serialization id). */
export const FLAG_OFFSET = 2;
/** Offset of the status byte (responses only). */
export const STATUS_OFFSET = 3;
/** Offset of the signed 64-bit request id. */
export const ID_OFFSET = 4;
/** Offset of the signed 32-bit body length. */
export const LENGTH_OFFSET = 12;
