import Foundation
import Testing
import TodoKit

@Suite("CRC-32")
struct CRC32Tests {
    @Test("Known check values")
    func checkValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Data("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test("Feeding in pieces gives the checksum of the whole")
    func incremental() {
        let bytes = Array("hello, incremental world".utf8)
        var crc = CRC32()
        crc.update(bytes[..<5])
        crc.update(bytes[5...])
        #expect(crc.value == CRC32.checksum(bytes))
    }

    @Test("Any single flipped bit changes the checksum")
    func detectsFlips() {
        let bytes = Array(#"{"items":[{"id":"x","title":"milk","done":false}]}"#.utf8)
        let original = CRC32.checksum(bytes)
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= 1 << bit
                #expect(CRC32.checksum(damaged) != original)
            }
        }
    }
}
