// expect: 4:7: constant bank 2 exceeds 65536 bytes
.const 2
.zero 65536
.byte 1
