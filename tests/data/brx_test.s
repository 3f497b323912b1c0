//--------------------- .nv.constant2.brx_test    --------------------------
	.section	.nv.constant2.brx_test,"a",@"SHT_CUDA_CONSTANT_B2"
	.sectionflags	@""
	.align	4
	.type		brx_test.const_opt.0.16,@"STT_CUDA_OBJECT"
	.size		brx_test.const_opt.0.16,(.L_0 - brx_test.const_opt.0.16)
	.other		brx_test.const_opt.0.16,@"STO_CUDA_CONSTANT STV_INTERNAL"
brx_test.const_opt.0.16:
.nv.constant2.brx_test:
        /*0000*/ 	.word	(.L_x_7 - .text.brx_test)
        /*0004*/ 	.word	(.L_x_8 - .text.brx_test)
        /*0008*/ 	.word	(.L_x_9 - .text.brx_test)
        /*000c*/ 	.word	(.L_x_10 - .text.brx_test)
.L_0:

//--------------------- .text.brx_test            --------------------------
	.section	.text.brx_test,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=24"
	.align	128
        .global         brx_test
        .type           brx_test,@function
        .size           brx_test,(.L_x_15 - brx_test)
brx_test:
.text.brx_test:
        /*0000*/                   BSSY B0, `(.L_x_0) ;
        /*0010*/                   IMAD.SHL.U32 R6, R6, 0x4, RZ ;
        /*0020*/                   BSSY B1, `(.L_x_1) ;
        /*0030*/                   IADD3 R0, R6, 0x8000, RZ ;
        /*0040*/                   LDC R6, c[R0+`((brx_test.const_opt.0.16 + -0x8000))] ;        // 读取32bit跳转表Entry到R6
        /*0050*/                   SHF.R.S32.HI R7, RZ, 0x1f, R6 ;                               // 将R6符号扩展到R7，从而R[6:7]为S64类型
.L_x_6:
        /*0060*/                   BRX R6 `(((.text.brx_test - .) - 0x10))               (*"BRANCH_TARGETS .L_x_7,.L_x_8,.L_x_9,.L_x_10"*);
                                   // 这里 `.text.brx_test`是当前kernel的基地址，`.`表示当前PC，`-0x10`表示相对下一条指令
                                   // 所以这里的汇编结果就是：BRX R6 -0x70 (offset=-0x7,低4bit省去); 相当于是BRX下一条指令地址取负数
.L_x_7:
        /*0070*/                   IADD3 R4, R4, 0x1, RZ ;
        /*0080*/                   BRA `(.L_x_3) ;
.L_x_8:
        /*0090*/                   SHF.L.U32 R4, R4, 0x1, RZ ;
        /*00a0*/                   BRA `(.L_x_3) ;
.L_x_9:
        /*00b0*/                   IADD3 R4, R4, -0x3, RZ ;
.L_x_3:
        /*00c0*/                   BSYNC B1 ;
.L_x_1:
        /*00d0*/                   BRA `(.L_x_4) ;
.L_x_10:
        /*00e0*/                   EXIT ;
.L_x_4:
        /*00f0*/                   BSYNC B0 ;
.L_x_0:
        /*0100*/                   RET.ABS.NODEC R20 0x0 ;
.L_x_5:
        /*0110*/                   BRA `(.L_x_5);
