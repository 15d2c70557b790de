;-| Button Remapping |-----------------------------------------------------
; This section lets you remap the player's buttons (to easily change the
; button configuration). The format is:
;   old_button = new_button
; If new_button is left blank, the button cannot be pressed.
[Remap]
x = x
y = y
z = z
a = a
b = b
c = c
s = s

;-| Default Values |-------------------------------------------------------
[Defaults]
; Default value for the "time" parameter of a Command. Minimum 1.
command.time = 15

; Default value for the "buffer.time" parameter of a Command. Minimum 1,
; maximum 30.
command.buffer.time = 1


;-| Super Motions |--------------------------------------------------------
;The following two have the same name, but different motion.
;Either one will be detected by a "command = TripleKFPalm" trigger.
;Time is set to 20 (instead of default of 15) to make the move
;easier to do.
;

;-| Special Motions |------------------------------------------------------
[Command]
name = "blocking"
command = $F,x
time = 3

[Command]
name = "blocking" ;Same name as above (buttons in opposite order)
command = x,$F
time = 3

[Command]
name = "HCB_c"
command = ~F,DF,D,DB,B, c
time = 32
buffer.Time=16


[Command]
name = "41236_c"
command = ~B, DB, D, DF, F, c
time = 32
buffer.Time=16


[Command]
name = "214_a"
command = ~D, DB, B, a
time = 20
buffer.Time=10

[Command]
name = "214_b"
command = ~D, DB, B, b
time = 20
buffer.Time=10

[Command]
name = "214_c"
command = ~D, DB, B, c
time = 20
buffer.Time=10


[Command]
name = "236_a"
command = ~D, DF, F, a
time = 20
buffer.Time=10

[Command]
name = "236_b"
command = ~D, DF, F, b
time = 20
buffer.Time=10

[Command]
name = "236_c"
command = ~D, DF, F, c
time = 20
buffer.Time=10


[Command]
name = "[4]]6[_a"
command = ~35$B, F, a;~45$B, F, a
time = 20
buffer.Time=10

[Command]
name = "[4]]6[_b"
command = ~35$B, F, b;~45$B, F, b
time = 20
buffer.Time=10

[Command]
name = "[4]]6[_c"
command = ~35$B, F, c
time = 20
buffer.Time=10

[Command]
name = "FF_ab"
command = F, F, a+b
time = 20
buffer.Time=10

[Command]
name = "FF_a"
command = F, F, a
time = 20
buffer.Time=10

[Command]
name = "FF_b"
command = F, F, b
time = 20
buffer.Time=10

[Command]
name = "22x"
command = D, D, x
time = 20
buffer.Time=10

[Command]
name = "a+b"
command = a+b
time = 1

[Command]
name = "/a"
command = /a

[Command]
name = "~a"
command = ~a

[Command]
name = "/b"
command = /b

[Command]
name = "22a"
command = D, D, a
time = 20
buffer.Time=10

[Command]
name = "22b"
command = D, D, b
time = 20
buffer.Time=10

[Command]
name = "22c"
command = D, D, c
time = 20
buffer.Time=10

[Command]
name = "BB_x"
command = B, B, x
time = 20
buffer.Time=10


[Command]
name = "623a"
command =  ~F, D, DF, a
time = 20
buffer.time = 10

[Command]
name = "623b"
command =  ~F, D, DF, b
time = 20
buffer.time = 10

[Command]
name = "623c"
command =  ~F, D, DF, c
time = 20
buffer.time = 10


;-| Double Tap |-----------------------------------------------------------
[Command]
name = "FF"     ;Required (do not remove)
command = F, F
time = 10

[Command]
name = "BB"     ;Required (do not remove)
command = B, B
time = 10

;-| 2/3 Button Combination |-----------------------------------------------

[Command]
name = "toronzon"
command = y+c
time = 1

[Command]
name = "recovery";Required (do not remove)
command = x
time = 1

[Command]
	name="recovery"
	command=y
	Time=1

[Command]
	name="recovery"
	command=z
	Time=1

[Command]
	name="recovery"
	command=a
	Time=1

[Command]
	name="recovery"
	command=b
	Time=1

[Command]
	name="recovery"
	command=c
	Time=1

;-| Dir + Button |---------------------------------------------------------
[Command]
name = "down_a"
command = /$D,a
time = 1

[Command]
name = "down_b"
command = /$D,b
time = 1

;-| Single Button |---------------------------------------------------------
[Command]
name = "a"
command = a
time = 1

[Command]
name = "b"
command = b
time = 1

[Command]
name = "c"
command = c
time = 1

[Command]
name = "x"
command = x
time = 1

[Command]
name = "y"
command = y
time = 1

[Command]
name = "z"
command = z
time = 1

[Command]
name = "start"
command = s
time = 1

[Command]
name = "hold_x"
command = /x
time = 1
[Command]
name = "hold_y"
command = /y
time = 1
[Command]
name = "hold_z"
command = /z
time = 1
[Command]
name = "hold_a"
command = /a
time = 1
[Command]
name = "hold_c"
command = /c
time = 1
;-| Hold Dir |--------------------------------------------------------------
[Command]
name = "holdfwd";Required (do not remove)
command = /$F
time = 1

[Command]
name = "holdback";Required (do not remove)
command = /$B
time = 1

[Command]
name = "holdup" ;Required (do not remove)
command = /$U
time = 1

[Command]
name = "holddown";Required (do not remove)
command = /$D
time = 1

;---------------------------------------------------------------------------
; 2. State entry
; --------------
; Don't remove the following line. It's required by the CMD standard.
[Statedef -1]

;---------------------------------------------------------------------------
[State -1, 214a]
type = ChangeState
value = 1100
triggerall = command = "214_a"
triggerall = statetype!=A
trigger1=ctrl
trigger2 =(StateNo=[200,499]) && var(1)
;trigger2=stateno=1050
