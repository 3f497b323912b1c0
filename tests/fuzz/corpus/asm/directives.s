// every directive and data form once
.const 2
table:  .byte 1, -1, 0xff
        .align 4
        .short 0x1234
        .word table, . + 4, (1 << 31) | 7
        .dword -0x8000000000000000
        .quad 0xffffffffffffffff
        .float 1.5, -2e-3, inf, nan, 0x3f800000
        .zero 3
.section .nv.constant3.k
        .word 9
.text
.kernel first
.param u32 n
.param s32 s
.param f32 f
.param u64 w
.param ptr p
.shared 0x40
.local 16
.dialect sass
.trap_handler handler
        MOV R1, c[0x0][0x0] ;
        LDC R2, c[0x2][R1+0x4] ;
        ULDC UR4, c[0x3][0x0] ;
   @!P0 TRAP 0x1 ;
        EXIT ;
handler:
        BAR.SYNCALL ;
        RTT ;
.end
.kernel second
.dialect visa
        NBARRIER.signal 0x3, 0x0, 0x1, 0x1 ;
        NBARRIER.wait 0x3 ;
        EXIT ;
.end
