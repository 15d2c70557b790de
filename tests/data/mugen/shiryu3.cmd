;-| Button Remapping |-----------------------------------------------------
; This section lets you remap the player's buttons (to easily change the
; button configuration). The format is:
;   old_button = new_button
; If new_button is left blank, the button cannot be pressed.


[command]
name = "ataque-final1"
command = F,D,B,y
time = 20

[command]
name = "fala"
command = s
time = 15

[command]
name = "colera-100-dragoes2"
command = D,F,D,F,c
time = 25

[command]
name = "ataque3"
command = D,B,z
time = 15

[command]
name = "ataque"
command = D,B,b
time = 15

[Remap]
[command]
name = "ataque1"
command = D,B,a
time = 15

x = x
[command]
name = "dragao-voador-end"
command = D,F,D,F,a
time = 30

y = y
[command]
name = "combo-esay"
command = F,D,B,x
time = 15

z = z
[Command]
name = "segura_a"
command = /a
[Command]
name = "segura_b"
command = /b

a = a
[command]
name = "colera-dos-100-dragoes"
command = B,D,F,c
time = 15

b = b
[command]
name = "drag縊-voador2"
command = B,D,F,b
time = 15

c = c
[command]
name = "dragao-voador"
command = B,D,F,z
time = 15

[command]
name = "teletransporte"
command = a+x
time = 30

[Command]
name = "superblock"
command = c
time = 50

s = s

;-| Default Values |-------------------------------------------------------
[command]
name = "excalibur-ouro"
command = B,D,F,y
time = 15

[Defaults]
; Default value for the "time" parameter of a Command. Minimum 1.
[command]
name = "excalibur"
command = B,D,F,x
time = 15

command.time = 15

; Default value for the "buffer.time" parameter of a Command. Minimum 1,
; maximum 30.
[command]
name = "colera-do-dragao"
command = B,D,F,a
time = 15

command.buffer.time = 1


;-| Super Motions |--------------------------------------------------------
;The following two have the same name, but different motion.
;Either one will be detected by a "command = TripleKFPalm" trigger.
;Time is set to 20 (instead of default of 15) to make the move
;easier to do.
;


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
name = "recovery";Required (do not remove)
command = x+y
time = 1

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
command = x
time = 1

[Command]
name = "b"
command = y
time = 1

[Command]
name = "c"
command = c
time = 1

[Command]
name = "x"
command = a
time = 1

[Command]
name = "y"
command = b
time = 1

[Command]
name = "z"
command = z
time = 1

[Command]
name = "start"
command = s
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

;super block
[State -1, block]
type = ChangeState
value = 7027
triggerall = command = "superblock"
triggerall = command = "holdback"
trigger1 = statetype != A
trigger1 = ctrl = 1
