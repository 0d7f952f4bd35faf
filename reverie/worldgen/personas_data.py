"""The three residents of Willow Creek: who they are, where they live, what they know,
what they look like, and the memories whispered to them at the start of a run."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PersonaData:
    name: str
    age: int
    innate: str
    learned: str
    currently: str
    lifestyle: str
    daily_plan_req: str
    home: str  # sector of the home
    living_arena: str  # arena of the home where the persona sleeps
    knows: tuple[str, ...]  # sectors the persona knows besides the home
    spawn: str  # spawn label in the living arena
    whispers: tuple[str, ...]
    look: dict = field(default_factory=dict)

    @property
    def first_name(self) -> str:
        return self.name.split(" ")[0]

    @property
    def last_name(self) -> str:
        return self.name.split(" ")[-1]


PUBLIC = ("Willow Bean Cafe", "Creek Corner Shop", "Willow Creek Park", "Willow Creek Town Hall")

PERSONAS = (
    PersonaData(
        name="Nora Bennett",
        age=41,
        innate="warm, organized, talkative",
        learned=(
            "Nora Bennett runs Willow Bean Cafe on the main street of Willow Creek. She bakes "
            "the pastries herself every morning and knows most of her regulars by name."
        ),
        currently=(
            "Nora Bennett is putting together a spring tasting menu for the cafe and wants to "
            "ask her regulars which new pastries they like best."
        ),
        lifestyle="Nora Bennett goes to bed around 10pm, wakes up around 5am and eats dinner around 6pm.",
        daily_plan_req="Nora Bennett opens Willow Bean Cafe at 7am and works behind the counter until 3pm.",
        home="Nora Bennett's house",
        living_arena="bedroom",
        spawn="sp-A",
        knows=PUBLIC + ("Theo Alvarez's house",),
        whispers=(
            "You and Theo Alvarez have been neighbors for three years",
            "Iris Novak is a regular at Willow Bean Cafe and you like her paintings",
            "You offered to hang Iris Novak's paintings in the cafe for a small exhibition",
            "You are testing lemon and lavender pastries for the spring tasting menu",
        ),
        look={
            "skin": (236, 196, 160),
            "hair": (150, 70, 40),
            "long_hair": True,
            "shirt": (196, 84, 80),
            "pants": (70, 70, 90),
        },
    ),
    PersonaData(
        name="Theo Alvarez",
        age=29,
        innate="curious, patient, a little shy",
        learned=(
            "Theo Alvarez is a town planner at Willow Creek Town Hall. He maps the paths and "
            "parks of the town and sketches bridges in his notebook."
        ),
        currently=(
            "Theo Alvarez is drafting a proposal for a footbridge across the pond in Willow "
            "Creek Park and is collecting opinions from his neighbors."
        ),
        lifestyle=(
            "Theo Alvarez goes to bed around 11pm, wakes up around 7am and takes a walk in the park after work."
        ),
        daily_plan_req=(
            "Theo Alvarez buys a coffee at Willow Bean Cafe at 8am and works at Willow Creek Town Hall from 9am to 5pm."
        ),
        home="Theo Alvarez's house",
        living_arena="bedroom",
        spawn="sp-A",
        knows=PUBLIC + ("Nora Bennett's house",),
        whispers=(
            "You buy a coffee at Willow Bean Cafe every morning on your way to the town hall",
            "You and Nora Bennett are neighbors and good friends",
            "You met Iris Novak in Willow Creek Park while she was painting by the pond",
            "You want to present the footbridge proposal at the town hall meeting next week",
        ),
        look={
            "skin": (200, 150, 110),
            "hair": (40, 32, 30),
            "long_hair": False,
            "shirt": (70, 120, 170),
            "pants": (110, 90, 70),
        },
    ),
    PersonaData(
        name="Iris Novak",
        age=23,
        innate="creative, cheerful, impulsive",
        learned=(
            "Iris Novak works afternoons at Creek Corner Shop and spends her mornings painting "
            "landscapes in Willow Creek Park."
        ),
        currently=(
            "Iris Novak is getting ready for a small exhibition of her paintings at Willow Bean "
            "Cafe at the end of the month."
        ),
        lifestyle="Iris Novak goes to bed around midnight and wakes up around 8am.",
        daily_plan_req=(
            "Iris Novak paints in Willow Creek Park from 9am to 12pm and works at Creek Corner Shop from 1pm to 6pm."
        ),
        home="Iris Novak's house",
        living_arena="bedroom",
        spawn="sp-A",
        knows=PUBLIC,
        whispers=(
            "You work at Creek Corner Shop in the afternoons",
            "You are excited about your exhibition at Willow Bean Cafe, which Nora Bennett offered to host",
            "You think Theo Alvarez's footbridge idea would make a lovely painting",
        ),
        look={
            "skin": (246, 214, 186),
            "hair": (232, 196, 96),
            "long_hair": True,
            "shirt": (110, 170, 110),
            "pants": (60, 80, 130),
        },
    ),
)
